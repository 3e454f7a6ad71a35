/**
 * Foundation (issue 2): two users on one server. Neither can read, change or delete the other's
 * social sets, templates, keys, accounts or drafts: every such request is 404 NOT_FOUND (never
 * 403, never the data), listings show only one's own, foreign ids cannot be smuggled into one's
 * own resources, and after every attempt the victim's rows are exactly as they were.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertAccount, insertDraft, ownerId } from '../helpers/fixtures.js';
import { addUser, startServer, type Reply, type TestServer } from '../helpers/server.js';

let t: TestServer;
/** Alice is the owner, Bob the second user; each has one of everything. */
const alice = { key: '', set: '', template: '', keyId: '', account: '', draft: '' };
const bob = { key: '', set: '', template: '', keyId: '', account: '', draft: '' };

async function seed(who: typeof alice, userId: string, label: string) {
  who.account = insertAccount(t, userId, 'skyblog', `${label}.example`);
  who.set = (await t.call('GET', '/social-sets', { key: who.key })).body.socialSets[0].id;
  who.template = (
    await t.call('POST', '/templates', {
      key: who.key,
      body: { name: `${label}'s template`, headContentPlain: `${label} head` },
    })
  ).body.template.uuid;
  who.keyId = (
    await t.call('POST', '/auth/api-keys', { key: who.key, body: { name: `${label}'s script` } })
  ).body.apiKey.id;
  who.draft = insertDraft(t, userId, [`${label} secret draft`], { title: `${label}'s draft` });
}

/** Everything a user can see of their own resources, for before/after comparison. */
async function snapshot(who: typeof alice) {
  const get = async (p: string) => (await t.call('GET', p, { key: who.key })).body;
  return {
    sets: await get('/social-sets'),
    templates: await get('/templates'),
    accounts: await get('/accounts'),
    keys: (await get('/auth/api-keys')).apiKeys.map((k: any) => ({ ...k, lastUsed: null, status: null })),
    draft: await get(`/microblog/drafts/${who.draft}`),
    platforms: await get(`/microblog/drafts/${who.draft}/platforms`),
  };
}

function expect404(r: Reply, what: string) {
  expect(r.status, `${what}: ${r.text}`).toBe(404);
  expect(r.body, what).toMatchObject({ success: false, error: 'NOT_FOUND' });
}

beforeAll(async () => {
  t = await startServer({ scheduler: false });
  alice.key = await t.login();
  bob.key = await addUser(t, 'bob@example.test', 'bob password');
  await seed(alice, ownerId(t), 'alice');
  await seed(bob, ownerId(t, 'bob@example.test'), 'bob');
  await t.call('PUT', `/microblog/drafts/${alice.draft}/platforms`, {
    key: alice.key,
    body: { platforms: [{ platform: 'skyblog', content: 'alice sky text' }] },
  });
});
afterAll(async () => {
  await t.close();
});

describe('two users', () => {
  it("listings show only one's own sets, templates, keys, accounts and drafts", async () => {
    for (const [me, other] of [
      [alice, bob],
      [bob, alice],
    ] as const) {
      const text = (
        await Promise.all(
          ['/social-sets', '/templates', '/auth/api-keys', '/accounts', '/microblog/drafts', '/credits/usage'].map(
            (p) => t.call('GET', p, { key: me.key }),
          ),
        )
      )
        .map((r) => r.text)
        .join('\n');
      for (const id of [me.set, me.template, me.keyId, me.account, me.draft]) expect(text).toContain(id);
      for (const id of [other.set, other.template, other.keyId, other.account, other.draft])
        expect(text).not.toContain(id);
    }
    const me = await t.call('GET', '/me', { key: bob.key });
    expect(me.body.email).toBe('bob@example.test');
  });

  it("every read, change and delete of the other user's resources is 404, and changes nothing", async () => {
    const before = await snapshot(alice);
    const k = bob.key;
    const attempts: [string, string, unknown?][] = [
      ['GET', `/templates/${alice.template}`],
      ['PUT', `/templates/${alice.template}`, { name: 'owned by bob', headContentPlain: 'bob was here' }],
      ['DELETE', `/templates/${alice.template}`],
      ['PUT', '/social-sets', { id: alice.set, name: 'owned by bob' }],
      ['PUT', '/social-sets', { id: alice.set, isDefault: true }],
      ['PUT', '/social-sets', { id: alice.set, accountIds: [] }],
      ['DELETE', '/social-sets', { id: alice.set }],
      ['DELETE', `/auth/api-keys/${alice.keyId}`],
      ['GET', `/accounts/${alice.account}`],
      ['DELETE', `/accounts/${alice.account}`],
      ['GET', `/microblog/drafts/${alice.draft}`],
      ['PUT', `/microblog/drafts/${alice.draft}`, { title: 'owned by bob' }],
      ['DELETE', `/microblog/drafts/${alice.draft}`],
      ['GET', `/microblog/drafts/${alice.draft}/platforms`],
      [
        'PUT',
        `/microblog/drafts/${alice.draft}/platforms`,
        { platforms: [{ platform: 'skyblog', content: 'bob was here' }] },
      ],
    ];
    for (const [method, p, body] of attempts) {
      const r = await t.call(method, p, { key: k, body });
      expect404(r, `${method} ${p}`);
      expect(r.text).not.toMatch(/alice/i);
    }
    expect(await snapshot(alice)).toEqual(before);
    // Alice's resources still answer to Alice.
    expect((await t.call('GET', `/templates/${alice.template}`, { key: alice.key })).status).toBe(200);
  });

  it("foreign ids cannot be put into one's own resources", async () => {
    const before = await snapshot(alice);
    const bobSets = (await t.call('GET', '/social-sets', { key: bob.key })).body;
    // Alice's account in Bob's set: refused as an unknown account, naming nothing of Alice's.
    const create = await t.call('POST', '/social-sets', {
      key: bob.key,
      body: { name: 'grab', accountIds: [alice.account] },
    });
    expect(create.status).toBe(400);
    expect(create.body.error).toBe('INVALID_INPUT');
    const update = await t.call('PUT', '/social-sets', {
      key: bob.key,
      body: { id: bob.set, accountIds: [bob.account, alice.account] },
    });
    expect(update.status).toBe(400);
    expect((await t.call('GET', '/social-sets', { key: bob.key })).body).toEqual(bobSets);
    // A draft of Bob's cannot be filed under Alice's set, target Alice's account or use Alice's template.
    const inHerSet = await t.call('POST', '/microblog/drafts', {
      key: bob.key,
      body: { title: 'x', tweets: [{ content: 'x' }], socialSetId: alice.set },
    });
    expect404(inHerSet, 'draft in a foreign set');
    const herAccount = await t.call('POST', '/microblog/drafts', {
      key: bob.key,
      body: { title: 'x', tweets: [{ content: 'x' }], selectedAccountIds: [alice.account] },
    });
    expect(herAccount.status).toBe(400);
    // Each foreign id gets exactly the answer an id that never existed gets.
    const draftWith = (extra: object) =>
      t.call('POST', '/microblog/drafts', { key: bob.key, body: { title: 'x', tweets: [{ content: 'x' }], ...extra } });
    const same = async (field: string, foreign: unknown, never: unknown) => {
      const a = await draftWith({ [field]: foreign });
      const b = await draftWith({ [field]: never });
      expect([a.status, a.body.error], field).toEqual([b.status, b.body.error]);
      expect(a.text).not.toContain('alice');
    };
    await same('socialSetId', alice.set, 'never-existed');
    await same('selectedAccountIds', [alice.account], ['never-existed']);
    await same('templateId', alice.template, 'never-existed');
    expect((await t.call('GET', '/microblog/drafts', { key: bob.key })).body.drafts).toHaveLength(1);
    expect(await snapshot(alice)).toEqual(before);
  });

  it("deleting one user's things leaves the other's untouched", async () => {
    const before = await snapshot(alice);
    for (const [method, p, body] of [
      ['DELETE', `/templates/${bob.template}`],
      ['DELETE', `/accounts/${bob.account}`],
      ['DELETE', '/social-sets', { id: bob.set }],
      ['DELETE', `/auth/api-keys/${bob.keyId}`],
      ['DELETE', `/microblog/drafts/${bob.draft}`],
    ] as [string, string, unknown?][]) {
      expect((await t.call(method, p, { key: bob.key, body })).status, `${method} ${p}`).toBe(200);
    }
    expect(await snapshot(alice)).toEqual(before);
  });
});
