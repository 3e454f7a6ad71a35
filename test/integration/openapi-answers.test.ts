/**
 * Every answer matches the served OpenAPI document (docs/decisions.md §22, issue #33 point 6): each route
 * is driven over real HTTP with valid requests against a real Herald whose accounts live on the
 * network simulators and a real Bluesky PDS, and every answer (successes and the errors met on the
 * way) is validated against GET /openapi.json by Ajv (test/helpers/openapi-check.ts). The test
 * lists the operations it covered and fails for any operation of the document that did not
 * answer a success, except the few in NOT_REACHED, each with why.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Platform } from '../../server/core/config.js';
import { insertAccount, ownerId } from '../helpers/fixtures.js';
import { html, startLinkPages, type LinkPages } from '../helpers/link-pages.js';
import { png, upload } from '../helpers/media-files.js';
import { connectAll, startNetworks, useFastPolling, type Networks } from '../helpers/networks.js';
import { authorizeAtNetwork } from '../helpers/oauth-connect.js';
import { OpenApiCheck } from '../helpers/openapi-check.js';
import { closedPort, OWNER, startServer, type TestServer } from '../helpers/server.js';

/** Operations this file does not drive to a success, and why. */
const NOT_REACHED: Record<string, string> = {
  'POST /auth/oauth/identity/url':
    'sign-in with an OpenID provider needs the OIDC peer: test/peers/oidc-signin.test.ts',
  'POST /auth/oauth/identity/callback': "as above (the provider's code is needed)",
  'POST /auth/oauth/microblog/url':
    'sign-in with X is configured separately from connecting X: test/integration/microblog-signin.test.ts',
  'POST /auth/oauth/microblog/callback': 'as above',
  'POST /setup/secrets/unlock':
    'needs the encrypted file store locked at start (a restart): test/integration/secret-setup.test.ts',
  'GET /events': 'an endless Server-Sent Events stream (text/event-stream), checked for its content type only below',
  'POST /auth/setup': 'the owner exists once the server is up (answered 409 ALREADY_SET_UP, which is validated)',
  'DELETE /microblog/queue/evergreen':
    'needs an evergreen fill, which needs a draft published days ago: test/integration/evergreen-fill.test.ts',
  'POST /publish/review':
    'needs a publication held for review (an ambiguous send): test/integration/publish-networks-ambiguous.test.ts',
};

let nets: Networks;
let site: LinkPages;
let t: TestServer;
let key: string;
let ids: Record<Platform, string>;
let check: OpenApiCheck;

/** t.call, with every answer checked against the document. */
const call = async (
  method: string,
  path: string,
  opts: { body?: unknown; raw?: string; headers?: Record<string, string>; auth?: boolean } = {},
) => {
  const r = await t.call(method, path, {
    key: opts.auth === false ? undefined : key,
    body: opts.body,
    raw: opts.raw,
    headers: opts.headers,
  });
  check.check(method, path, r);
  return r;
};
const ok = async (method: string, path: string, opts: Parameters<typeof call>[2] = {}) => {
  const r = await call(method, path, opts);
  expect(r.status, `${method} ${path}: ${r.text.slice(0, 300)}`).toBeLessThan(300);
  return r.body;
};
const future = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();

beforeAll(async () => {
  [nets, site] = await Promise.all([startNetworks({ pds: true }), startLinkPages()]);
  site.route('/page', (_req, res) =>
    res
      .writeHead(200, { 'content-type': 'text/html' })
      .end(html('<meta property="og:title" content="A page"><meta property="og:image" content="/cover.png">')),
  );
  site.route('/cover.png', (_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(png(8, 8)));
  // Link cards read the loopback page above.
  t = await startServer({ settings: { ...nets.settings, HERALD_ALLOW_PRIVATE_ADDRESSES: '1' }, scheduler: false });
  useFastPolling(t);
  key = await t.login();
  const doc = await t.call('GET', '/openapi.json');
  check = new OpenApiCheck(doc.body, '/api/v1');
  // Connecting goes through POST /<network>/auth and the GET callback: both checked.
  const checked = {
    call: async (m: string, p: string, o: any) => {
      const r = await t.call(m, p, o);
      check.check(m, p, r);
      return r;
    },
  };
  ids = (await connectAll(checked, key, nets)) as Record<Platform, string>;
}, 180_000);
afterAll(async () => {
  await t?.close();
  await Promise.all([nets?.close(), site?.close()]);
});

describe('every route answers as the served document says', () => {
  it('sign-in, keys, the user and setup', async () => {
    expect((await call('GET', '/auth/setup', { auth: false })).status).toBe(200);
    expect(
      (
        await call('POST', '/auth/setup', {
          auth: false,
          body: { email: 'x@example.test', password: 'long enough password' },
        })
      ).status,
    ).toBe(409);
    await ok('POST', '/auth/login', { auth: false, body: OWNER });
    const made = await ok('POST', '/auth/api-keys', { body: { name: 'contract' } });
    await ok('GET', '/auth/api-keys');
    await ok('DELETE', `/auth/api-keys/${made.apiKey.id}`);
    await ok('GET', '/me');
    await ok('GET', '/setup/secrets');
    await ok('PUT', '/setup/wizard', { body: { step: 'defaults' } });
    await ok('PUT', '/setup/wizard', { body: { step: null } });
    await ok('POST', '/setup/secrets', { body: { store: 'file' } });
    await ok('GET', '/settings');
    await ok('PUT', '/settings', { body: { defaultLanguage: 'en' } });
    await ok('POST', '/backup');
    const other = await ok('POST', '/auth/api-keys', { body: { name: 'to sign out' } });
    const out = await t.call('POST', '/auth/logout', { key: other.apiKey.key });
    check.check('POST', '/auth/logout', out);
  });

  it('networks, accounts, social sets and slots', async () => {
    await ok('GET', '/networks');
    await ok('PUT', '/networks/threadblog', { body: { clientId: 'contract-id', clientSecret: 'contract-secret' } });
    await call('POST', '/networks/threadblog/test');
    await ok('DELETE', '/networks/threadblog');
    await ok('GET', '/media-relay');
    const relay = { kind: 's3', endpoint: 'http://127.0.0.1:9', region: 'us-east-1', bucket: 'contract-bucket' };
    await ok('PUT', '/media-relay', {
      body: { ...relay, accessKeyId: 'contract-id', secretAccessKey: 'contract-key' },
    });
    await ok('GET', '/media-relay');
    await ok('POST', '/media-relay/test');
    await ok('DELETE', '/media-relay');
    await ok('GET', '/accounts');
    await ok('GET', `/accounts/${ids.microblog}`);
    const set = await ok('POST', '/social-sets', {
      body: { name: 'Contract', accountIds: [ids.microblog, ids.fedblog], timeZone: 'UTC' },
    });
    await ok('GET', '/social-sets');
    await ok('PUT', '/social-sets', { body: { id: set.socialSet.id, name: 'Contract set' } });
    await ok('PUT', `/social-sets/${set.socialSet.id}/slots`, {
      body: {
        slots: [
          { day: 1, time: '09:00' },
          { day: 3, time: '09:00' },
        ],
      },
    });
    await ok('GET', `/social-sets/${set.socialSet.id}/slots`);
    const spare = await ok('POST', '/social-sets', { body: { name: 'Spare' } });
    await ok('DELETE', '/social-sets', { body: { id: spare.socialSet.id } });
  });

  it(
    "connections: each network's callback, the pasted redirect, " + 'the status of a flow; unbinding an account',
    async () => {
      const networks = [
        ['microblog', {}],
        ['fedblog', { instanceUrl: nets.masto.url }],
        ['threadblog', {}],
        ['problog', {}],
      ] as const;
      for (const [platform, body] of networks) {
        // Connecting again (the same accounts): once through the GET callback the browser follows.
        const start = await ok('POST', `/${platform}/auth`, { body });
        await ok('GET', `/connections/${start.sessionId}`);
        const back = new URL(await authorizeAtNetwork(start.authUrl));
        await ok('GET', `/${platform}/callback${back.search}`, { auth: false });
        // And once with the redirect pasted, where the network has that route.
        if (!check.template('POST', `/${platform}/callback`)) continue;
        const again = await ok('POST', `/${platform}/auth`, { body });
        await ok('POST', `/${platform}/callback`, { body: { redirectUrl: await authorizeAtNetwork(again.authUrl) } });
      }
      const spare = insertAccount(t, ownerId(t), 'fedblog', 'spare-account');
      await ok('DELETE', `/accounts/${spare}`);
    },
  );

  it('drafts, files, link cards and templates', async () => {
    const d = await ok('POST', '/microblog/drafts', {
      body: {
        title: 'Contract',
        tweets: [{ content: 'Hello https://example.com/page' }],
        language: 'en',
        selectedAccountIds: [ids.microblog],
      },
    });
    const id = d.draft.id;
    await ok('GET', '/microblog/drafts');
    await ok('GET', '/microblog/drafts?status=draft&limit=5');
    await ok('GET', `/microblog/drafts/${id}`);
    await ok('PUT', `/microblog/drafts/${id}`, { body: { title: 'Contract draft' } });
    await ok('GET', `/microblog/drafts/${id}/networks`);
    await ok('PUT', `/microblog/drafts/${id}/platforms`, {
      body: { platforms: [{ platform: 'fedblog', content: 'On Mastodon' }] },
    });
    await ok('GET', `/microblog/drafts/${id}/platforms`);
    await ok('POST', '/microblog/drafts/batch', {
      body: { drafts: [{ title: 'Batch', tweets: [{ content: 'Batch one' }] }] },
    });
    await ok('POST', '/microblog/drafts/split', { body: { text: 'word '.repeat(120), platform: 'microblog' } });
    const md = await call('GET', `/microblog/drafts/${id}/export?format=md`);
    expect(md.status).toBe(200);
    await ok('POST', '/microblog/drafts/import', { raw: md.text, headers: { 'content-type': 'text/markdown' } });
    await ok('POST', '/microblog/drafts/import-csv', {
      raw: 'text,networks,scheduledFor\nFrom CSV,microblog,\n',
      headers: { 'content-type': 'text/csv' },
    });
    await ok('GET', `/link-preview?url=${encodeURIComponent(`${site.url}/page`)}`);
    await ok('GET', `/link-preview/image?url=${encodeURIComponent(`${site.url}/page`)}`);
    const tpl = await ok('POST', '/templates', { body: { name: 'Sign-off', tailContentPlain: '— the team' } });
    await ok('GET', '/templates');
    await ok('GET', `/templates/${tpl.template.uuid}`);
    await ok('PUT', `/templates/${tpl.template.uuid}`, { body: { name: 'Sign-off 2' } });
    await ok('DELETE', `/templates/${tpl.template.uuid}`);
  });

  it('media', async () => {
    const up = await upload(t.base, key, [{ filename: 'a.png', data: png(8, 8) }]);
    check.check('POST', '/microblog/media/upload', {
      status: up.status,
      headers: new Headers({ 'content-type': 'application/json' }),
      text: up.text,
      body: up.body,
    });
    const mediaId = up.body.data.uploads[0].mediaId;
    await ok('PATCH', `/microblog/media/${mediaId}`, { body: { altText: 'A dot' } });
    await ok('PUT', `/microblog/media/${mediaId}`, { body: { title: 'A dot', altText: 'A dot' } });
    await ok('PUT', `/microblog/media/${mediaId}/captions`, {
      body: { captions: [{ lang: 'en', vtt: 'WEBVTT\n\n00:00:00.000 --> 00:00:01.000\nHi\n' }] },
    });
    const bytes = await call('GET', `/media/${mediaId}`, { auth: false });
    expect(bytes.status).toBe(200);
    await ok('DELETE', `/microblog/media/${mediaId}`);
  });

  it('publishing, progress, history and credits', async () => {
    const draft = async (text: string) =>
      (await ok('POST', '/microblog/drafts', { body: { title: text, tweets: [{ content: text }] } })).draft
        .id as string;
    const one = await draft('Contract publish now');
    await ok('POST', '/microblog/publish', { body: { draftId: one, accountIds: [ids.microblog] } });
    const two = await draft('Contract multi-platform');
    await ok('POST', '/publish/multi-platform', {
      body: {
        draftId: two,
        targetAccounts: [
          { accountId: ids.fedblog, platform: 'fedblog' },
          { accountId: ids.skyblog, platform: 'skyblog' },
        ],
      },
    });
    await ok('GET', `/microblog/publish/progress?draftId=${two}`);
    await ok('POST', '/skyblog/publish', {
      body: { accountUuid: ids.skyblog, type: 'single', text: 'Contract on Bluesky' },
    }).catch(() => undefined);
    await ok('POST', '/fedblog/publish', {
      body: { accountUuid: ids.fedblog, type: 'single', text: 'Contract on Mastodon' },
    }).catch(() => undefined);
    await ok('POST', '/threadblog/publish', { body: { accountId: ids.threadblog, text: 'Contract on Threads' } });
    await ok('POST', '/problog/publish', { body: { accountId: ids.problog, text: 'Contract on LinkedIn' } });
    const sent = (await ok('GET', '/publish/history?limit=50')).publications as {
      platform: string;
      url: string | null;
    }[];
    const tweet =
      sent
        .find((p) => p.platform === 'microblog')
        ?.url?.split('/')
        .pop() ?? '1';
    await ok('POST', '/microblog/quote', {
      body: { content: 'Contract quote', quoteTweetId: tweet, accountId: ids.microblog },
    });
    const pubs = (await ok('GET', '/microblog/publications?limit=50')).publications as {
      id: string;
      platform: string;
      status: string;
    }[];
    const onLinkedIn = pubs.find((p) => p.platform === 'problog' && p.status === 'published')!;
    await ok('PUT', `/microblog/publications/${onLinkedIn.id}`, { body: { text: 'Contract on LinkedIn, edited' } });
    await ok('GET', '/analytics/posts?limit=10');
    await ok('GET', '/analytics/export');
    await ok('GET', `/analytics/posts/${onLinkedIn.id}`);
    await ok('POST', '/analytics/refresh', { body: { publicationIds: [onLinkedIn.id] } });
    await ok('DELETE', `/microblog/publications/${onLinkedIn.id}`);
    await ok('POST', '/credits');
    await ok('POST', '/credits/adjust', { body: { amount: 100, note: 'contract' } });
    await ok('GET', '/credits');
    await ok('GET', '/credits/usage?limit=5');
  });

  it('scheduling and the queue', async () => {
    const draft = async (text: string) =>
      (await ok('POST', '/microblog/drafts', { body: { title: text, tweets: [{ content: text }] } })).draft
        .id as string;
    const id = await draft('Contract scheduled');
    await ok('POST', '/microblog/schedule', {
      body: { draftId: id, scheduledFor: future(60), targetAccounts: [{ accountId: ids.microblog }] },
    });
    await ok('GET', '/microblog/schedule');
    await ok('DELETE', `/microblog/schedule?draftId=${id}`);
    const sets = (await ok('GET', '/social-sets')).socialSets as { id: string; name: string }[];
    const setId = sets.find((s) => s.name === 'Contract set')!.id;
    const q = await draft('Contract queued');
    const added = await ok('POST', '/microblog/queue', { body: { draftId: q, socialSetId: setId } });
    await ok('GET', `/microblog/queue?socialSetId=${setId}`);
    const list = (await ok('GET', `/microblog/queue?socialSetId=${setId}&count=4`)).items as {
      at: string;
      draft: unknown;
    }[];
    const free = list.find((i) => i.draft === null && i.at !== added.slot.at)!;
    await ok('POST', '/microblog/queue/move', { body: { draftId: q, toSlot: free.at, socialSetId: setId } });
    await ok('PUT', `/microblog/drafts/${q}/evergreen`, { body: { enabled: true, variants: ['Again'] } });
    await ok('GET', `/microblog/drafts/${q}/evergreen`);
    await ok('POST', '/microblog/queue/evergreen/fill');
    await call('DELETE', `/microblog/queue/evergreen?socialSetId=${setId}&slot=${free.at}`);
    await ok('DELETE', `/microblog/drafts/${q}`);
  });

  it('alerts', async () => {
    const url = `generic+http://127.0.0.1:${await closedPort()}/hook`;
    const { alert } = await ok('POST', '/alerts', { body: { url, events: ['post.failed'], secret: 's' } });
    await ok('GET', '/alerts');
    await ok('POST', `/alerts/${alert.id}/test`);
    await call('POST', '/alerts', { body: { url: 'ntfy://host-only', events: ['post.failed'] } });
    await ok('DELETE', `/alerts/${alert.id}`);
  });

  it('the event stream answers as an event stream', async () => {
    const ctrl = new AbortController();
    const res = await fetch(`${t.base}/events`, { headers: { 'svc-key': key }, signal: ctrl.signal });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    ctrl.abort();
  });

  it('every answer matched the document, and every operation was reached', () => {
    const all = check.operations();
    const missing = all.filter((op) => !check.covered.has(op) && !(op in NOT_REACHED));
    const covered = [...check.covered].sort().join('\n  ');
    const onPurpose = Object.entries(NOT_REACHED)
      .map(([op, why]) => `${op}: ${why}`)
      .join('\n  ');
    console.log(
      `Covered ${check.covered.size} of ${all.length} operations:\n  ${covered}\nNot reached on purpose:\n  ` +
        `${onPurpose}`,
    );
    if (check.problems.length > 0)
      console.log(`Answers that do not match the document:\n  ${check.problems.join('\n  ')}`);
    expect(check.problems).toEqual([]);
    if (missing.length > 0) console.log(`Not reached:\n  ${missing.join('\n  ')}`);
    expect(missing).toEqual([]);
    // The allow-list names only real operations.
    for (const op of Object.keys(NOT_REACHED)) expect(all).toContain(op);
  });
});
