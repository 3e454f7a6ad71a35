/**
 * Foundation (issue 2): with the owner variables set, a new user logs in, lists/creates/deletes
 * keys, reads /me, manages templates, reads credits and usage, and every answer carries exactly
 * the field names and types of the spec's "Resources and their fields" plus the decisions
 * (success: true everywhere, head/tail HTML, tier...). The expected field lists are written out
 * here from the spec, not taken from the contracts, so a contract that drifts from the spec fails
 * this file. Real HTTP, real SQLite, real migrations. Social sets and accounts:
 * foundation-sets-accounts.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { clock, del, get, key, owner, post, put, t, useFoundationServer } from '../helpers/foundation-server.js';
import { isTimestamp, keysOf, sorted } from '../helpers/spec-fields.js';
import { OWNER, startServer } from '../helpers/server.js';

useFoundationServer();

/** The preview docs/decisions.md §2 fixes: first 7 and last 4 characters, `…` between. */
const preview = (k: string) => `${k.slice(0, 7)}…${k.slice(-4)}`;

describe('sign-in and keys', () => {
  it('POST /auth/login: {success, user{uuid,email}, apiKey{key,name,createdAt,lastUsed}, warning}', async () => {
    const r = await t.call('POST', '/auth/login', { body: { email: OWNER.email, password: OWNER.password } });
    expect(r.status).toBe(200);
    expect(keysOf(r.body)).toEqual(sorted('success', 'user', 'apiKey', 'warning'));
    expect(r.body.success).toBe(true);
    expect(r.body.user).toEqual({ uuid: owner, email: OWNER.email });
    expect(keysOf(r.body.apiKey)).toEqual(sorted('key', 'name', 'createdAt', 'lastUsed', 'expiresAt'));
    expect(r.body.apiKey.name).toBe('Default API Key');
    expect(r.body.apiKey.key).toMatch(/^hk_[0-9A-Za-z]{32,}$/);
    expect(r.body.apiKey.lastUsed).toBeNull();
    expect(Date.parse(r.body.apiKey.createdAt)).toBe(clock.now());
    isTimestamp(r.body.apiKey.createdAt);
    expect(r.body.warning).toMatch(/once/i);
    // The e-mail is matched without regard to case or surrounding spaces.
    const again = await t.call('POST', '/auth/login', {
      body: { email: `  ${OWNER.email.toUpperCase()} `, password: OWNER.password },
    });
    expect(again.status).toBe(200);
    expect(again.body.apiKey.key).not.toBe(r.body.apiKey.key);
    // Earlier keys keep working after a new login.
    expect((await t.call('GET', '/me', { key: r.body.apiKey.key })).status).toBe(200);
  });

  it('POST /auth/api-keys answers the full key once with keyPreview; the listing shows it masked', async () => {
    clock.advance(1000);
    const made = await post('/auth/api-keys', { name: '  ci runner  ' });
    expect(made.status).toBe(200);
    expect(keysOf(made.body)).toEqual(sorted('success', 'apiKey', 'warning'));
    const k = made.body.apiKey;
    // Spec fields plus the decided tier and status, and its expiry (docs/decisions.md §2).
    expect(keysOf(k)).toEqual(sorted('id', 'key', 'keyPreview', 'name', 'createdAt', 'tier', 'status', 'expiresAt'));
    expect(k).toMatchObject({ name: 'ci runner', tier: 'pro', status: 'created' });
    expect(k.key).toMatch(/^hk_[0-9A-Za-z]{32,}$/);
    expect(k.keyPreview).toBe(preview(k.key));
    expect(Date.parse(k.createdAt)).toBe(clock.now());

    const list = await get('/auth/api-keys');
    expect(list.status).toBe(200);
    expect(keysOf(list.body)).toEqual(['apiKeys', 'success']);
    const item = list.body.apiKeys.find((x: any) => x.id === k.id);
    // session / current: a key minted for scripts is no browser session, and not the one asking.
    expect(keysOf(item)).toEqual(
      sorted('id', 'key', 'name', 'status', 'lastUsed', 'createdAt', 'tier', 'expiresAt', 'session', 'current'),
    );
    expect(item).toEqual({
      session: false,
      current: false,
      id: k.id,
      key: k.keyPreview,
      name: 'ci runner',
      status: 'created',
      tier: 'pro',
      lastUsed: null,
      createdAt: k.createdAt,
      expiresAt: null,
    });
    // No listing ever carries a full key.
    for (const x of list.body.apiKeys) {
      expect(x.key).toMatch(/^hk_[0-9A-Za-z]{4}…[0-9A-Za-z]{4}$/);
      isTimestamp(x.createdAt);
    }
    expect(list.text).not.toContain(k.key);
    expect(list.text).not.toContain(key);
    // The key works; after its first use it is active with a lastUsed.
    expect((await t.call('GET', '/me', { key: k.key })).status).toBe(200);
    const after = (await get('/auth/api-keys')).body.apiKeys.find((x: any) => x.id === k.id);
    expect(after.status).toBe('active');
    expect(Date.parse(after.lastUsed)).toBe(clock.now());
  });

  it('accepts an optional tier; X-RateLimit headers follow the tier on every keyed answer', async () => {
    const free = (await post('/auth/api-keys', { name: 'free', tier: 'free' })).body.apiKey;
    expect(free.tier).toBe('free');
    // A pro key mints no enterprise key (docs/decisions.md §2); an enterprise sign-in key does.
    const refused = await post('/auth/api-keys', { name: 'ent', tier: 'enterprise' });
    expect([refused.status, refused.body.error]).toEqual([403, 'UNAUTHORIZED']);
    const big = await startServer({ clock, scheduler: false, settings: { HERALD_DEFAULT_TIER: 'enterprise' } });
    const ent = (
      await big.call('POST', '/auth/api-keys', { key: await big.login(), body: { name: 'ent', tier: 'enterprise' } })
    ).body.apiKey;
    expect(ent.tier).toBe('enterprise');
    const answers = [
      [await t.call('GET', '/me', { key: free.key }), 100],
      [await big.call('GET', '/templates', { key: ent.key }), 10000],
      [await t.call('GET', '/no-such-thing', { key }), 1000],
      [await t.call('GET', '/templates/nope', { key: free.key }), 100],
    ] as const;
    const windowEnd = Math.ceil((Math.floor(clock.now() / 3_600_000) + 1) * 3600);
    for (const [r, limit] of answers.slice(0, 2)) {
      expect(r.headers.get('x-ratelimit-limit')).toBe(String(limit));
      expect(r.headers.get('x-ratelimit-reset')).toBe(String(windowEnd));
    }
    // Error answers of keyed routes carry them too.
    expect(answers[3][0].status).toBe(404);
    expect(answers[3][0].headers.get('x-ratelimit-limit')).toBe('100');
    expect(answers[3][0].headers.get('x-ratelimit-remaining')).toBe('98');
    await big.close();
  });

  it('DELETE /auth/api-keys/:keyId answers {success, message}; the key stops working at once', async () => {
    const k = (await post('/auth/api-keys', { name: 'short-lived' })).body.apiKey;
    expect((await t.call('GET', '/me', { key: k.key })).status).toBe(200);
    const r = await del(`/auth/api-keys/${k.id}`);
    expect(r.status).toBe(200);
    expect(keysOf(r.body)).toEqual(['message', 'success']);
    expect(r.body.success).toBe(true);
    const gone = await t.call('GET', '/me', { key: k.key });
    expect(gone.status).toBe(401);
    expect(gone.body.error).toBe('INVALID_API_KEY');
    expect((await get('/auth/api-keys')).body.apiKeys.some((x: any) => x.id === k.id)).toBe(false);
    // A key may delete itself; the answer still arrives, and then it is dead.
    const self = (await post('/auth/api-keys', { name: 'self' })).body.apiKey;
    expect((await t.call('DELETE', `/auth/api-keys/${self.id}`, { key: self.key })).status).toBe(200);
    expect((await t.call('GET', '/me', { key: self.key })).status).toBe(401);
  });
});

describe('GET /me', () => {
  it('answers a User with exactly the spec fields and types', async () => {
    const r = await get('/me');
    expect(r.status).toBe(200);
    expect(keysOf(r.body)).toEqual(
      sorted(
        'success',
        'uuid',
        'email',
        'nickname',
        'avatar_url',
        'timezone',
        'credits_balance',
        'locale',
        'created_at',
      ),
    );
    const u = r.body;
    expect(u).toMatchObject({
      success: true,
      uuid: owner,
      email: OWNER.email,
      nickname: 'owner',
      avatar_url: '',
      locale: 'en',
    });
    expect(() => new Intl.DateTimeFormat('en', { timeZone: u.timezone })).not.toThrow();
    expect(u.credits_balance).toBe(10_000);
    isTimestamp(u.created_at);
  });
});

describe('templates', () => {
  const templateFields = sorted(
    'uuid',
    'name',
    'description',
    'head_content_plain',
    'tail_content_plain',
    'head_content_html',
    'tail_content_html',
    'created_at',
    'updated_at',
  );

  it('POST with plain only derives the HTML; with HTML only derives the plain text', async () => {
    clock.advance(1000);
    const plain = await post('/templates', {
      name: 'Plain',
      headContentPlain: 'Hello & <welcome>\nsecond line',
      tailContentPlain: 'Bye',
    });
    expect(plain.status).toBe(200);
    expect(keysOf(plain.body)).toEqual(['success', 'template']);
    const p = plain.body.template;
    expect(keysOf(p)).toEqual(templateFields);
    expect(p).toMatchObject({
      name: 'Plain',
      description: '',
      head_content_plain: 'Hello & <welcome>\nsecond line',
      head_content_html: '<p>Hello &amp; &lt;welcome&gt;<br>second line</p>',
      tail_content_plain: 'Bye',
      tail_content_html: '<p>Bye</p>',
    });
    expect(Date.parse(p.created_at)).toBe(clock.now());
    expect(p.updated_at).toBe(p.created_at);

    clock.advance(1000);
    const html = await post('/templates', {
      name: 'Html',
      description: 'from html',
      headContentHtml: '<p>Intro <b>bold</b> &amp; more</p><p>Next<script>alert(1)</script></p>',
      tailContentHtml: 'Line one<br>Line <a href="https://example.com" onclick="x()">two</a>',
    });
    const h = html.body.template;
    expect(h.head_content_plain).toBe('Intro bold & more\nNext');
    expect(h.head_content_html).toBe('<p>Intro <b>bold</b> &amp; more</p><p>Next</p>');
    expect(h.tail_content_plain).toBe('Line one\nLine two');
    expect(h.tail_content_html).toBe('Line one<br />Line <a href="https://example.com">two</a>');
    // Both given: both kept as sent (HTML sanitised).
    clock.advance(1000);
    const both = await post('/templates', {
      name: 'Both',
      headContentPlain: 'own plain',
      headContentHtml: '<p>own html</p>',
    });
    expect(both.body.template).toMatchObject({
      head_content_plain: 'own plain',
      head_content_html: '<p>own html</p>',
      tail_content_plain: '',
      tail_content_html: '',
    });
  });

  it('GET list newest first, GET one, PUT any field (updated_at moves), DELETE {success, message}', async () => {
    const list = await get('/templates');
    expect(list.status).toBe(200);
    expect(keysOf(list.body)).toEqual(['success', 'templates']);
    expect(list.body.templates.map((x: any) => x.name)).toEqual(['Both', 'Html', 'Plain']);
    for (const x of list.body.templates) expect(keysOf(x)).toEqual(templateFields);
    const plain = list.body.templates[2];
    expect((await get(`/templates/${plain.uuid}`)).body).toEqual({ success: true, template: plain });

    clock.advance(60_000);
    const renamed = await put(`/templates/${plain.uuid}`, { name: 'Renamed' });
    expect(renamed.status).toBe(200);
    expect(keysOf(renamed.body)).toEqual(['success', 'template']);
    expect(renamed.body.template).toEqual({
      ...plain,
      name: 'Renamed',
      updated_at: new Date(clock.now()).toISOString(),
    });
    const html = await put(`/templates/${plain.uuid}`, { tailContentHtml: '<p>New <em>tail</em></p>' });
    expect(html.body.template).toMatchObject({
      tail_content_html: '<p>New <em>tail</em></p>',
      tail_content_plain: 'New tail',
      head_content_plain: plain.head_content_plain,
    });
    expect((await get(`/templates/${plain.uuid}`)).body.template).toEqual(html.body.template);

    const d = await del(`/templates/${plain.uuid}`);
    expect(d.status).toBe(200);
    expect(keysOf(d.body)).toEqual(['message', 'success']);
    expect((await get(`/templates/${plain.uuid}`)).status).toBe(404);
    expect((await get('/templates')).body.templates).toHaveLength(2);
  });
});

describe('credits', () => {
  it(
    'POST /credits answers {success, balance, expiresAt}; GET ' + '/credits/usage answers records and pagination',
    async () => {
      const c = await t.call('POST', '/credits', { key });
      expect(c.status).toBe(200);
      // The spec's fields, plus the schedule outlook issue #19 added (what the month's credits cover
      // against what is scheduled: the UI's early warning), and X's spend (docs/decisions.md §15 xSpend).
      // And what the Credits page explains (issue #32): the month's zone, the grant and what scheduled posts reserve.
      expect(keysOf(c.body)).toEqual([
        'balance',
        'covers',
        'expiresAt',
        'monthlyCredits',
        'reserved',
        'scheduled',
        'success',
        'timeZone',
        'warning',
        'xSpend',
      ]);
      expect(c.body.xSpend).toEqual({ monthUsd: 0, scheduledUsd: 0, capUsd: null });
      expect(c.body.scheduled).toEqual({ posts: 0, credits: 0 });
      expect(c.body.balance).toBe(10_000);
      isTimestamp(c.body.expiresAt);
      const u = await get('/credits/usage');
      expect(u.status).toBe(200);
      expect(keysOf(u.body)).toEqual(['pagination', 'records', 'success']);
      expect(u.body.pagination).toEqual({ total: 1, page: 1, limit: 20, hasMore: false });
      const [rec] = u.body.records;
      expect(keysOf(rec)).toEqual(
        sorted(
          'id',
          'trans_no',
          'trans_type',
          'credits',
          'order_no',
          'source_type',
          'source_detail',
          'expired_at',
          'created_at',
        ),
      );
      expect(Number.isInteger(rec.id)).toBe(true);
      expect(rec).toMatchObject({ trans_type: 'grant', credits: 10_000, order_no: null, expired_at: c.body.expiresAt });
      expect(typeof rec.trans_no).toBe('string');
      expect(typeof rec.source_detail).toBe('string');
      isTimestamp(rec.created_at);
    },
  );
});
