/**
 * Foundation (issue 2): a new user manages social sets (the first is the default, exactly one
 * default at a time, deleting one keeps its drafts) and reads and deletes accounts, and every
 * answer carries exactly the field names and types of the spec's "Resources and their fields"
 * plus the decisions (success: true, isDefault...). The expected field lists are written out here
 * from the spec, not taken from the contracts. Real HTTP, real SQLite, real migrations.
 */
import { describe, expect, it } from 'vitest';
import { insertAccount, insertDraft } from '../helpers/fixtures.js';
import { clock, del, get, owner, post, put, t, useFoundationServer } from '../helpers/foundation-server.js';
import { isTimestamp, keysOf, sorted } from '../helpers/spec-fields.js';

useFoundationServer();

describe('social sets', () => {
  const setFields = sorted('id', 'name', 'accounts', 'isDefault', 'createdAt', 'timeZone');
  let first: string;

  it('a new user has none; the first set created becomes the default', async () => {
    expect((await get('/social-sets')).body).toEqual({ success: true, socialSets: [] });
    clock.advance(1000);
    const r = await post('/social-sets', { name: 'Work' });
    expect(r.status).toBe(200);
    expect(keysOf(r.body)).toEqual(['socialSet', 'success']);
    expect(keysOf(r.body.socialSet)).toEqual(setFields);
    expect(r.body.socialSet).toMatchObject({ name: 'Work', isDefault: true, accounts: [] });
    isTimestamp(r.body.socialSet.createdAt);
    first = r.body.socialSet.id;
  });

  it('takes accountIds, lists accounts as {accountId, platform, username} in the given order', async () => {
    const sky = insertAccount(t, owner, 'skyblog', 'sky.example');
    const fed = insertAccount(t, owner, 'fedblog', 'fed@example');
    clock.advance(1000);
    const r = await post('/social-sets', { name: 'Both', accountIds: [fed, sky, fed] });
    expect(r.status).toBe(200);
    expect(r.body.socialSet.isDefault).toBe(false);
    expect(r.body.socialSet.accounts).toEqual([
      { accountId: fed, platform: 'fedblog', username: 'fed@example' },
      { accountId: sky, platform: 'skyblog', username: 'sky.example' },
    ]);
    const list = await get('/social-sets');
    expect(list.body.socialSets.map((s: any) => s.name)).toEqual(['Work', 'Both']);
    for (const s of list.body.socialSets) {
      expect(keysOf(s)).toEqual(setFields);
      for (const a of s.accounts) expect(keysOf(a)).toEqual(['accountId', 'platform', 'username']);
    }
    // Connecting accounts attached them to the default set (Work), which lists them too.
    expect(list.body.socialSets[0].accounts.map((a: any) => a.accountId)).toEqual([sky, fed]);
  });

  it('PUT renames, replaces accounts and moves the default; exactly one default at a time', async () => {
    const both = (await get('/social-sets')).body.socialSets[1];
    const sky = both.accounts[1].accountId;
    const r = await put('/social-sets', { id: both.id, name: 'Sky only', accountIds: [sky], isDefault: true });
    expect(r.status).toBe(200);
    expect(keysOf(r.body)).toEqual(['socialSet', 'success']);
    expect(r.body.socialSet).toMatchObject({
      id: both.id,
      name: 'Sky only',
      isDefault: true,
      accounts: [{ accountId: sky, platform: 'skyblog' }],
    });
    const sets = (await get('/social-sets')).body.socialSets;
    expect(sets.filter((s: any) => s.isDefault).map((s: any) => s.id)).toEqual([both.id]);
    // A name-only update keeps the accounts.
    const renamed = await put('/social-sets', { id: both.id, name: 'Sky' });
    expect(renamed.body.socialSet.accounts).toHaveLength(1);
    // The default cannot simply be switched off: another set has to become default instead.
    const off = await put('/social-sets', { id: both.id, isDefault: false });
    expect(off.status).toBe(400);
    expect(off.body.error).toBe('INVALID_INPUT');
    expect(off.body.details[0].path).toBe('isDefault');
    expect((await get('/social-sets')).body.socialSets.find((s: any) => s.id === both.id).isDefault).toBe(true);
  });

  it(
    "DELETE keeps the set's drafts (socialSetId null); deleting the default makes the oldest remaining the " +
      'default',
    async () => {
      clock.advance(1000);
      const third = (await post('/social-sets', { name: 'Third' })).body.socialSet.id;
      const sets = (await get('/social-sets')).body.socialSets;
      const def = sets.find((s: any) => s.isDefault).id;
      const draft = insertDraft(t, owner, ['kept'], { socialSetId: def });
      const r = await del('/social-sets', { id: def });
      expect(r.status).toBe(200);
      expect(keysOf(r.body)).toEqual(['message', 'success']);
      const left = (await get('/social-sets')).body.socialSets;
      expect(left.map((s: any) => s.id)).toEqual([first, third]);
      expect(left.map((s: any) => s.isDefault)).toEqual([true, false]);
      const d = await get(`/microblog/drafts/${draft}`);
      expect(d.status).toBe(200);
      expect(d.body.draft.socialSetId).toBeNull();
      expect((await del('/social-sets', { id: def })).status).toBe(404);
    },
  );
});

describe('accounts', () => {
  const accountFields = sorted(
    'uuid',
    'platform',
    'platform_user_id',
    'username',
    'display_name',
    'avatar',
    'status',
    'followers_count',
    'following_count',
    'created_at',
    'server_url',
    'limits',
    'health',
    // decisions §11: whether the account's numbers can be read, and if not why.
    'analytics',
  );

  it('GET /accounts and GET /accounts/:id carry exactly the Account fields', async () => {
    const list = await get('/accounts');
    expect(list.status).toBe(200);
    expect(keysOf(list.body)).toEqual(['accounts', 'success']);
    expect(list.body.accounts.length).toBe(2);
    for (const a of list.body.accounts) {
      expect(keysOf(a)).toEqual(accountFields);
      expect(a.status).toBe('active');
      expect(Number.isInteger(a.followers_count) && Number.isInteger(a.following_count)).toBe(true);
      isTimestamp(a.created_at);
      const one = await get(`/accounts/${a.uuid}`);
      expect(one.status).toBe(200);
      expect(one.body).toEqual({ success: true, account: a });
    }
  });

  it('DELETE /accounts/:id removes it from every set and answers {success, message}', async () => {
    const sky = (await get('/accounts')).body.accounts.find((a: any) => a.platform === 'skyblog').uuid;
    const extra = await post('/social-sets', { name: 'Holds sky', accountIds: [sky] });
    expect(extra.body.socialSet.accounts).toHaveLength(1);
    const before = (await get('/social-sets')).body.socialSets.filter((s: any) =>
      s.accounts.some((a: any) => a.accountId === sky),
    );
    expect(before.length).toBeGreaterThanOrEqual(2);
    const r = await del(`/accounts/${sky}`);
    expect(r.status).toBe(200);
    expect(keysOf(r.body)).toEqual(['message', 'success']);
    expect((await get(`/accounts/${sky}`)).status).toBe(404);
    const sets = (await get('/social-sets')).body.socialSets;
    expect(sets.some((s: any) => s.accounts.some((a: any) => a.accountId === sky))).toBe(false);
    expect(sets.some((s: any) => s.id === extra.body.socialSet.id)).toBe(true);
    expect((await del(`/accounts/${sky}`)).status).toBe(404);
  });
});
