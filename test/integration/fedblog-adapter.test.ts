/**
 * The Mastodon adapter against the Mastodon simulator (real REST wire protocol on loopback),
 * through Herald's HTTP API where it exists: per-instance app registration and OAuth with PKCE,
 * the instance's limits on the account, statuses, reply chains, media with descriptions, the
 * Idempotency-Key across a lost answer, 429 with the ISO reset, a revoked token, state abuse.
 */
import fs from 'node:fs';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts } from '../../server/db/schema.js';
import { HeraldError } from '../../server/core/errors.js';
import type { PlatformAdapter, PostInput } from '../../server/platforms/adapter.js';
import { PlatformError } from '../../server/platforms/errors.js';
import { publishThread } from '../../server/platforms/thread.js';
import { authorizeAtNetwork, connectOAuth, finishCallback } from '../helpers/oauth-connect.js';
import { pngMedia } from '../helpers/png.js';
import { startServer, tempDir, type TestServer } from '../helpers/server.js';
import { startMastodonSimulator as startSharedSimulator, type MastodonSimulator as SharedSimulator } from '../simulators/mastodon.simulator.js';

/** The shared Mastodon simulator, read through the few questions these tests ask of it. */
async function startMastodonSimulator() {
  // Not Mastodon's default 500, so the limit on the account can only have come from the instance.
  const s: SharedSimulator = await startSharedSimulator({ maxCharacters: 640 });
  return {
    url: s.url,
    close: s.close,
    requests: s.requests,
    user: () => ({ ...s.state.accounts[0]!, followersCount: s.state.accounts[0]!.followers, followingCount: s.state.accounts[0]!.following }),
    // What the simulator's GET /api/v2/instance announces.
    limits: () => ({ maxCharacters: 640, charactersReservedPerUrl: 23, maxMediaAttachments: 4, descriptionLimit: 1500 }),
    apps: () => s.state.apps,
    status: (id: string) => {
      const st = s.state.statuses.find((x) => x.id === id);
      return st && { ...st, url: `${s.url}/@${s.state.accounts[0]!.username}/${st.id}` };
    },
    statusCount: () => s.state.statuses.length,
    media: (id: string) => s.state.media.get(id),
    fail429: (route: string, resetInSeconds: number) => s.faults.next({ kind: '429', resetInSeconds }, { route }),
    failDrop: (route: string, times = 1) => s.faults.next({ kind: 'commit-then-drop' }, { route, times }),
    revokeTokens: () => s.revokeAllTokens(),
    tokenCalls: () => s.requests.filter((r) => r === 'POST /oauth/token').length,
  };
}
type MastodonSimulator = Awaited<ReturnType<typeof startMastodonSimulator>>;

let sim: MastodonSimulator;
let t: TestServer;
let key: string;
let accountId: string;
const mediaDir = tempDir('herald-masto-media-');
let masto: PlatformAdapter;

const row = () => t.server.db.select().from(accounts).where(eq(accounts.id, accountId)).get()!;
let n = 0;
const post = (text: string, more: Partial<PostInput> = {}): PostInput => ({ text, media: [], options: {}, idempotencyKey: `key-${++n}-${text}`, ...more });
const publish = (input: PostInput) => t.server.services.credentials.withCredentials(row(), (ctx) => masto.publishPost(ctx, input));
const noHooks = { beforeSend: () => {}, afterSend: () => {} };

beforeAll(async () => {
  sim = await startMastodonSimulator();
  t = await startServer();
  masto = t.server.deps.platforms.get('fedblog');
  key = await t.login();
});

afterAll(async () => {
  await t?.close();
  await sim?.close();
  fs.rmSync(mediaDir, { recursive: true, force: true });
});

describe('connecting a Mastodon account', () => {
  it('registers Herald on the instance, runs OAuth with PKCE and keeps the instance limits', async () => {
    const result = await connectOAuth(t, key, 'fedblog', { instanceUrl: sim.url });
    const auth = new URL(result.authUrl);
    expect(`${auth.protocol}//${auth.host}`).toBe(new URL(sim.url).origin);
    expect(auth.searchParams.get('code_challenge_method')).toBe('S256');
    expect(auth.searchParams.get('redirect_uri')).toBe(`${t.server.url}/api/v1/fedblog/callback`);
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ success: true, accountUuid: expect.any(String), socialSetId: expect.any(String) });
    accountId = result.body.accountUuid;
    expect(sim.apps()).toHaveLength(1);
    expect(sim.apps()[0].redirectUris).toContain(`${t.server.url}/api/v1/fedblog/callback`);

    const list = await t.call('GET', '/accounts', { key });
    const account = list.body.accounts.find((a: any) => a.uuid === accountId);
    const user = sim.user();
    expect(account).toMatchObject({ platform: 'fedblog', status: 'active', followers_count: user.followersCount, following_count: user.followingCount });
    const meta = JSON.parse(row().meta);
    expect(meta).toMatchObject({
      max_characters: sim.limits().maxCharacters,
      characters_reserved_per_url: sim.limits().charactersReservedPerUrl,
      max_media_attachments: sim.limits().maxMediaAttachments,
      description_limit: sim.limits().descriptionLimit,
    });
    expect(row().serverUrl).toBe(new URL(sim.url).origin);

    const sets = await t.call('GET', '/social-sets', { key });
    const def = sets.body.socialSets.find((s: any) => s.isDefault);
    expect(def.id).toBe(result.body.socialSetId);
    expect(def.accounts.map((a: any) => a.accountId)).toContain(accountId);
  });

  it('reuses the registered app and the cached instance limits for a second connection', async () => {
    const instanceReads = () => sim.requests.filter((r) => r === 'GET /api/v2/instance').length;
    expect(instanceReads()).toBe(1);
    const again = await connectOAuth(t, key, 'fedblog', { instanceUrl: sim.url });
    expect(again.status).toBe(200);
    expect(again.body.accountUuid).toBe(accountId);
    expect(sim.apps()).toHaveLength(1);
    expect(instanceReads()).toBe(1);
    expect(JSON.parse(row().meta).max_characters).toBe(640);
  });
});

describe('publishing to Mastodon', () => {
  it('publishes a status with its Idempotency-Key and returns its URL', async () => {
    const input = post('Hello from Herald');
    const ref = await publish(input);
    const status = sim.status(ref.id)!;
    expect(status.text).toBe('Hello from Herald');
    expect(status.idempotencyKey).toBe(input.idempotencyKey);
    expect(ref.url).toBe(status.url);
  });

  it('publishes a 3-post thread as an in_reply_to_id chain', async () => {
    const parts = ['Toot 1/3', 'Toot 2/3', 'Toot 3/3'].map((text) => post(text));
    const refs = await t.server.services.credentials.withCredentials(row(), (ctx) => publishThread(masto, ctx, parts, [], noHooks));
    const stored = refs.map((r) => sim.status(r.id)!);
    expect(stored.map((s) => s.text)).toEqual(['Toot 1/3', 'Toot 2/3', 'Toot 3/3']);
    expect(stored[0].inReplyToId ?? null).toBeNull();
    expect(stored[1].inReplyToId).toBe(refs[0].id);
    expect(stored[2].inReplyToId).toBe(refs[1].id);
  });

  it('attaches two images with their descriptions', async () => {
    const a = pngMedia(mediaDir, 'green.png', 8, 6, [20, 200, 20], 'A green rectangle');
    const b = pngMedia(mediaDir, 'grey.png', 6, 8, [90, 90, 90], 'A grey rectangle');
    const ref = await publish(post('Two pictures', { media: [a, b] }));
    const status = sim.status(ref.id)!;
    expect(status.mediaIds).toHaveLength(2);
    expect(status.mediaIds.map((id) => sim.media(id)?.description)).toEqual(['A green rectangle', 'A grey rectangle']);
  });

  it('waits for media the instance processes asynchronously (202, then 206 until ready)', async () => {
    // A real 1x1 GIF: Mastodon turns GIFs into gifv video, processed in the background.
    const bytes = Buffer.from('47494638396101000100800000000000ffffff2c00000000010001000002024401003b', 'hex');
    const file = `${mediaDir}/dot.gif`;
    fs.writeFileSync(file, bytes);
    const ref = await publish(post('Slow picture', { media: [{ path: file, mime: 'image/gif', size: bytes.length, kind: 'gif', width: 1, height: 1, altText: 'A dot' }] }));
    const [mediaId] = sim.status(ref.id)!.mediaIds;
    expect(sim.media(mediaId)?.description).toBe('A dot');
    expect(sim.requests).toContain(`GET /api/v1/media/${mediaId}`);
  });

  it('creates one status when the answer is lost and the same key is sent again', async () => {
    const before = sim.statusCount();
    sim.failDrop('POST /api/v1/statuses');
    const input = post('Exactly once');
    const ref = await publish(input);
    expect(sim.statusCount()).toBe(before + 1);
    expect(sim.status(ref.id)!.text).toBe('Exactly once');

    // Both tries lost: ambiguous; the engine's next send with the same key still makes one.
    const twice = post('Still exactly once');
    sim.failDrop('POST /api/v1/statuses', 2);
    const err = await publish(twice).catch((e) => e);
    expect(err).toBeInstanceOf(PlatformError);
    expect(err.kind).toBe('ambiguous');
    const again = await publish(twice);
    expect(sim.statusCount()).toBe(before + 2);
    expect(sim.status(again.id)!.text).toBe('Still exactly once');
  });

  it('finds a recent post by its plain text and parent', async () => {
    const since = Date.now();
    const root = await publish(post('Lookup root with https://example.com/some/long/path & more'));
    const reply = await publish(post('Lookup reply', { replyTo: root }));
    const lookup = (text: string, replyTo?: typeof root) => t.server.services.credentials.withCredentials(row(), (ctx) => masto.findRecentPost(ctx, { text, replyTo, since, idempotencyKey: 'x' }));
    expect((await lookup('Lookup root with https://example.com/some/long/path & more'))?.id).toBe(root.id);
    expect((await lookup('Lookup reply', root))?.id).toBe(reply.id);
    expect(await lookup('Lookup reply')).toBeNull();
    expect(await lookup('Never posted')).toBeNull();
  });
});

describe('failures', () => {
  it('turns a 429 into rate_limited with the ISO 8601 reset', async () => {
    const before = Math.floor(Date.now() / 1000) + 300;
    sim.fail429('POST /api/v1/statuses', 300);
    const err = await publish(post('Too fast')).catch((e) => e);
    const after = Math.floor(Date.now() / 1000) + 300;
    expect(err).toBeInstanceOf(PlatformError);
    expect(err.kind).toBe('rate_limited');
    expect(err.resetAt % 1000).toBe(0);
    expect(err.resetAt / 1000).toBeGreaterThanOrEqual(before);
    expect(err.resetAt / 1000).toBeLessThanOrEqual(after);
  });

  it('marks the account needs_reauth with TOKEN_EXPIRED when the token is revoked', async () => {
    sim.revokeTokens();
    const err = await publish(post('After revocation')).catch((e) => e);
    expect(err).toBeInstanceOf(HeraldError);
    expect(err.code).toBe('TOKEN_EXPIRED');
    const account = await t.call('GET', `/accounts/${accountId}`, { key });
    expect(account.body.account.status).toBe('needs_reauth');
  });

  it('refuses a forged or replayed state before any token call', async () => {
    const start = await t.call('POST', '/fedblog/auth', { key, body: { instanceUrl: sim.url } });
    const callback = new URL(await authorizeAtNetwork(start.body.authUrl));
    const tokenCalls = sim.tokenCalls();
    const forged = new URL(callback);
    forged.searchParams.set('state', Buffer.alloc(40, 9).toString('base64url'));
    const bad = await finishCallback(forged.toString());
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('INVALID_INPUT');
    expect(sim.tokenCalls()).toBe(tokenCalls);

    const ok = await finishCallback(callback.toString());
    expect(ok.status).toBe(200);
    const replay = await finishCallback(callback.toString());
    expect(replay.status).toBe(400);
    expect(replay.body.error).toBe('INVALID_INPUT');
    expect(sim.tokenCalls()).toBe(tokenCalls + 1);
  });
});
