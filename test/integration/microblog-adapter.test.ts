/**
 * The X adapter against the X simulator (real API v2 wire protocol on loopback), through Herald's
 * HTTP API where it exists: OAuth 2.0 + PKCE connection, posts, threads, images with alt text,
 * quotes, rotating refresh under racing publishes, refused refresh, 429 with X's reset, a lost
 * answer (ambiguous) settled by the lookup, OAuth state abuse, and the keychain canary.
 */
import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts } from '../../server/db/schema.js';
import { HeraldError } from '../../server/core/errors.js';
import type { PlatformAdapter, PostInput, PostRef } from '../../server/platforms/adapter.js';
import { PlatformError } from '../../server/platforms/errors.js';
import { publishThread } from '../../server/platforms/thread.js';
import { authorizeAtNetwork, connectOAuth, finishCallback } from '../helpers/oauth-connect.js';
import { pngMedia } from '../helpers/png.js';
import { startServer, tempDir, type TestServer } from '../helpers/server.js';
import { startXSimulator as startSharedXSimulator, type XSimulator as SharedXSimulator } from '../simulators/x.simulator.js';

const CLIENT = { id: 'herald-test-client', secret: 'herald-test-secret' };

/** The shared X simulator, read through the few questions these tests ask of it. */
async function startXSimulator(client: { clientId: string; clientSecret: string }) {
  const s: SharedXSimulator = await startSharedXSimulator(client);
  const post = (id: string) => s.state.posts.find((p) => p.id === id);
  return {
    url: s.url,
    close: s.close,
    user: () => ({ ...s.state.users[0]!, followersCount: s.state.users[0]!.followers, followingCount: s.state.users[0]!.following }),
    tweet: (id: string) => { const p = post(id); return p && { ...p, inReplyTo: p.replyTo }; },
    tweetCount: () => s.state.posts.length,
    media: (id: string) => { const m = s.state.media.get(id); return m && { altText: m.altText, bytes: m.bytes?.length, segments: [...m.chunks.keys()], polls: m.statusPollsLeft, state: m.state }; },
    fail429: (route: string, resetInSeconds: number) => s.faults.next({ kind: '429', resetInSeconds }, { route }),
    failDrop: (route: string) => s.faults.next({ kind: 'commit-then-drop' }, { route }),
    expireAccessTokens: s.expireAccessTokens,
    revokeRefreshTokens: () => { for (const r of s.state.refreshTokens.values()) r.used = true; },
    refreshCount: () => s.state.refreshCalls,
    tokenCalls: () => s.requests.filter((r) => r === 'POST /2/oauth2/token').length,
    issuedTokens: () => [...s.state.issuedTokens],
    follows: () => s.state.follows,
  };
}
type XSimulator = Awaited<ReturnType<typeof startXSimulator>>;

function settingsFor(sim: XSimulator, extra: Record<string, string> = {}): Record<string, string> {
  return {
    HERALD_MICROBLOG_API_URL: sim.url,
    HERALD_MICROBLOG_AUTHORIZE_URL: `${sim.url}/i/oauth2/authorize`,
    HERALD_MICROBLOG_TOKEN_URL: `${sim.url}/2/oauth2/token`,
    HERALD_MICROBLOG_CLIENT_ID: CLIENT.id,
    HERALD_MICROBLOG_CLIENT_SECRET: CLIENT.secret,
    ...extra,
  };
}

let sim: XSimulator;
let t: TestServer;
let key: string;
let accountId: string;
const mediaDir = tempDir('herald-x-media-');
let x: PlatformAdapter;

const row = () => t.server.db.select().from(accounts).where(eq(accounts.id, accountId)).get()!;
const post = (text: string, more: Partial<PostInput> = {}): PostInput => ({ text, media: [], options: {}, idempotencyKey: `k-${text}`, ...more });
const publish = (input: PostInput) => t.server.services.credentials.withCredentials(row(), (ctx) => x.publishPost(ctx, input));
const noHooks = { beforeSend: () => {}, afterSend: () => {} };

beforeAll(async () => {
  sim = await startXSimulator({ clientId: CLIENT.id, clientSecret: CLIENT.secret });
  t = await startServer({ settings: settingsFor(sim) });
  x = t.server.deps.platforms.get('microblog');
  key = await t.login();
});

afterAll(async () => {
  await t?.close();
  await sim?.close();
  fs.rmSync(mediaDir, { recursive: true, force: true });
});

describe('connecting an X account', () => {
  it('runs OAuth 2.0 + PKCE through Herald and keeps follower counts', async () => {
    const result = await connectOAuth(t, key, 'microblog', {});
    const auth = new URL(result.authUrl);
    expect(auth.searchParams.get('code_challenge_method')).toBe('S256');
    expect(auth.searchParams.get('scope')?.split(' ')).toEqual(expect.arrayContaining(['tweet.read', 'tweet.write', 'users.read', 'media.write', 'offline.access']));
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ success: true, accountUuid: expect.any(String), socialSetId: expect.any(String) });
    accountId = result.body.accountUuid;

    const list = await t.call('GET', '/accounts', { key });
    const account = list.body.accounts.find((a: any) => a.uuid === accountId);
    const user = sim.user();
    expect(account).toMatchObject({ platform: 'microblog', username: user.username, status: 'active', followers_count: user.followersCount, following_count: user.followingCount });

    const sets = await t.call('GET', '/social-sets', { key });
    const def = sets.body.socialSets.find((s: any) => s.isDefault);
    expect(def.name).toBe('Default');
    expect(def.id).toBe(result.body.socialSetId);
    expect(def.accounts.map((a: any) => a.accountId)).toContain(accountId);
  });
});

describe('where a connected X account goes (socialSetId, mode)', () => {
  const setsHolding = async (id: string) => ((await t.call('GET', '/social-sets', { key })).body.socialSets as any[])
    .filter((s) => s.accounts.some((a: any) => a.accountId === id));

  it('mode create_new makes a set named after the handle; socialSetId adds to that set; an unknown set is refused before X is asked', async () => {
    const handle = sim.user().username;
    const fresh = await connectOAuth(t, key, 'microblog', { mode: 'create_new' });
    expect(fresh.status, JSON.stringify(fresh.body)).toBe(200);
    expect(fresh.body.accountUuid).toBe(accountId);
    const created = (await setsHolding(accountId)).find((s) => s.id === fresh.body.socialSetId);
    expect(created).toMatchObject({ name: handle, isDefault: false });
    expect(created.accounts.map((a: any) => a.accountId)).toEqual([accountId]);

    const mine = await t.call('POST', '/social-sets', { key, body: { name: 'Launch team' } });
    expect(mine.status, mine.text).toBe(200);
    const added = await connectOAuth(t, key, 'microblog', { socialSetId: mine.body.socialSet.id, mode: 'add_to_existing' });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    expect(added.body.socialSetId).toBe(mine.body.socialSet.id);
    expect((await setsHolding(accountId)).map((s) => s.name).sort()).toEqual(['Default', 'Launch team', handle].sort());

    const tokenCalls = sim.tokenCalls();
    const unknown = await t.call('POST', '/microblog/auth', { key, body: { socialSetId: '00000000-0000-4000-8000-000000000000' } });
    expect(unknown.status).toBe(404);
    expect(sim.tokenCalls()).toBe(tokenCalls);
  });
});

describe('publishing to X', () => {
  it('publishes a single post and returns its x.com URL', async () => {
    const ref = await publish(post('Hello from Herald'));
    const stored = sim.tweet(ref.id);
    expect(stored?.text).toBe('Hello from Herald');
    expect(ref.url).toBe(`https://x.com/${row().username}/status/${ref.id}`);
  });

  it('publishes a 3-post thread as a reply chain', async () => {
    const parts = ['Thread 1/3', 'Thread 2/3', 'Thread 3/3'].map((text) => post(text));
    const refs = await t.server.services.credentials.withCredentials(row(), (ctx) => publishThread(x, ctx, parts, [], noHooks));
    expect(refs).toHaveLength(3);
    const stored = refs.map((r) => sim.tweet(r.id)!);
    expect(stored.map((s) => s.text)).toEqual(['Thread 1/3', 'Thread 2/3', 'Thread 3/3']);
    expect(stored[0].inReplyTo).toBeUndefined();
    expect(stored[1].inReplyTo).toBe(refs[0].id);
    expect(stored[2].inReplyTo).toBe(refs[1].id);
  });

  it('resumes a thread after its published parts', async () => {
    const parts = ['Resume 1/3', 'Resume 2/3', 'Resume 3/3'].map((text) => post(text));
    const first = await publish(parts[0]);
    const before = sim.tweetCount();
    const refs = await t.server.services.credentials.withCredentials(row(), (ctx) => publishThread(x, ctx, parts, [first], noHooks));
    expect(sim.tweetCount()).toBe(before + 2);
    expect(sim.tweet(refs[1].id)!.inReplyTo).toBe(first.id);
  });

  it('attaches two images with their alt text', async () => {
    const a = pngMedia(mediaDir, 'red.png', 8, 6, [220, 20, 20], 'A red rectangle');
    const b = pngMedia(mediaDir, 'blue.png', 6, 8, [20, 20, 220], 'A blue rectangle');
    const ref = await publish(post('Two pictures', { media: [a, b] }));
    const stored = sim.tweet(ref.id)!;
    expect(stored.mediaIds).toHaveLength(2);
    expect(stored.mediaIds.map((id) => sim.media(id)?.altText)).toEqual(['A red rectangle', 'A blue rectangle']);
  });

  it('uploads a GIF in segments and waits for X to process it', async () => {
    // A real 1x1 GIF padded with a comment block past 1 MiB, so it takes two segments.
    const head = Buffer.from('474946383961010001008000000000ffffff21fe', 'hex');
    const comment: Buffer[] = [];
    for (let left = 1024 * 1024 + 500; left > 0; left -= 255) comment.push(Buffer.concat([Buffer.from([Math.min(255, left)]), Buffer.alloc(Math.min(255, left), 0x41)]));
    const tail = Buffer.from('002c00000000010001000002024401003b', 'hex');
    const bytes = Buffer.concat([head, ...comment, tail]);
    const file = path.join(mediaDir, 'dot.gif');
    fs.writeFileSync(file, bytes);
    const ref = await publish(post('A moving dot', { media: [{ path: file, mime: 'image/gif', size: bytes.length, kind: 'gif', width: 1, height: 1, altText: 'A single dot' }] }));
    const [mediaId] = sim.tweet(ref.id)!.mediaIds;
    expect(sim.media(mediaId)).toMatchObject({ bytes: bytes.length, altText: 'A single dot', state: 'succeeded' });
    expect(sim.media(mediaId)!.segments).toHaveLength(2);
  });

  it('quotes a post', async () => {
    const original = await publish(post('Worth quoting'));
    const ref = await publish(post('Quoting this', { quote: original }));
    expect(sim.tweet(ref.id)!.quoteOf).toBe(original.id);
  });

  it('refuses a duplicate with a message a person can act on', async () => {
    await publish(post('Say it once'));
    const err = await publish(post('Say it once', { idempotencyKey: 'another' })).catch((e) => e);
    expect(err).toBeInstanceOf(PlatformError);
    expect(err.kind).toBe('permanent');
    expect(err.message).toMatch(/already published the same text/);
  });
});

describe('failures', () => {
  it('turns a 429 into rate_limited with the simulator\'s reset', async () => {
    const before = Math.floor(Date.now() / 1000) + 900;
    sim.fail429('POST /2/tweets', 900);
    const err = await publish(post('Rate limited')).catch((e) => e);
    const after = Math.floor(Date.now() / 1000) + 900;
    expect(err).toBeInstanceOf(PlatformError);
    expect(err.kind).toBe('rate_limited');
    expect(err.resetAt % 1000).toBe(0);
    expect(err.resetAt / 1000).toBeGreaterThanOrEqual(before);
    expect(err.resetAt / 1000).toBeLessThanOrEqual(after);
  });

  it('over HTTP, X\'s 429 answers 429 RATE_LIMITED with a Retry-After that is X\'s reset, and refunds the credits', async () => {
    const quoted = await publish(post('Quote me later'));
    const balance = async () => (await t.call('POST', '/credits', { key })).body.balance as number;
    const before = await balance();
    sim.fail429('POST /2/tweets', 600);
    const r = await t.call('POST', '/microblog/quote', { key, body: { accountId, content: 'Quoted too fast', quoteTweetId: quoted.id } });
    expect(r.status, r.text).toBe(429);
    expect(r.body.error).toBe('RATE_LIMITED');
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(595);
    expect(Number(r.headers.get('retry-after'))).toBeLessThanOrEqual(601);
    expect(await balance()).toBe(before);
  });

  it('treats a post whose answer was lost as ambiguous, and finds it afterwards', async () => {
    const since = Date.now();
    sim.failDrop('POST /2/tweets');
    const input = post('Did this go out?');
    const err = await publish(input).catch((e) => e);
    expect(err).toBeInstanceOf(PlatformError);
    expect(err.kind).toBe('ambiguous');
    const found = await t.server.services.credentials.withCredentials(row(), (ctx) => x.findRecentPost(ctx, { text: input.text, since, idempotencyKey: input.idempotencyKey }));
    expect(found).not.toBeNull();
    expect(sim.tweet(found!.id)?.text).toBe('Did this go out?');
    const missing = await t.server.services.credentials.withCredentials(row(), (ctx) => x.findRecentPost(ctx, { text: 'Never posted', since, idempotencyKey: 'none' }));
    expect(missing).toBeNull();
  });

  it('refreshes an expired token once for 50 racing publishes, saving the rotated pair', async () => {
    const before = await t.server.services.credentials.load(accountId);
    sim.expireAccessTokens();
    const callsBefore = t.server.services.credentials.refreshCalls;
    const refreshesBefore = sim.refreshCount();
    const refs = await Promise.all(Array.from({ length: 50 }, (_, i) => publish(post(`Racing post ${i}`))));
    expect(new Set(refs.map((r: PostRef) => r.id)).size).toBe(50);
    expect(t.server.services.credentials.refreshCalls - callsBefore).toBe(1);
    expect(sim.refreshCount() - refreshesBefore).toBe(1);
    const after = await t.server.services.credentials.load(accountId);
    expect(after!.accessToken).not.toBe(before!.accessToken);
    expect(after!.refreshToken).not.toBe(before!.refreshToken);
  });

  it('marks the account needs_reauth with TOKEN_EXPIRED when X refuses the refresh', async () => {
    sim.expireAccessTokens();
    sim.revokeRefreshTokens();
    const err = await publish(post('After revocation')).catch((e) => e);
    expect(err).toBeInstanceOf(HeraldError);
    expect(err.code).toBe('TOKEN_EXPIRED');
    const account = await t.call('GET', `/accounts/${accountId}`, { key });
    expect(account.body.account.status).toBe('needs_reauth');
  });
});

describe('OAuth state and configuration', () => {
  it('refuses a forged or replayed state before any token call', async () => {
    const start = await t.call('POST', '/microblog/auth', { key, body: {} });
    const callback = new URL(await authorizeAtNetwork(start.body.authUrl));
    const tokenCalls = sim.tokenCalls();

    const forged = new URL(callback);
    forged.searchParams.set('state', Buffer.alloc(40, 7).toString('base64url'));
    const bad = await finishCallback(forged.toString());
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('INVALID_INPUT');
    expect(sim.tokenCalls()).toBe(tokenCalls);

    const ok = await finishCallback(callback.toString());
    expect(ok.status).toBe(200);
    const afterFirst = sim.tokenCalls();
    const replay = await finishCallback(callback.toString());
    expect(replay.status).toBe(400);
    expect(replay.body.error).toBe('INVALID_INPUT');
    expect(sim.tokenCalls()).toBe(afterFirst);
  });

  it('follows Herald\'s own account after connecting when followOnPlatform is set', async () => {
    const other = await startServer({ settings: settingsFor(sim, { HERALD_MICROBLOG_FOLLOW_USER_ID: '783214' }) });
    try {
      const k = await other.login();
      const before = sim.follows().length;
      const connected = await connectOAuth(other, k, 'microblog', { followOnPlatform: true, mode: 'create_new' });
      expect(connected.status).toBe(200);
      expect(sim.follows().slice(before)).toEqual([{ source: sim.user().id, target: '783214' }]);
    } finally {
      await other.close();
    }
  });

  it('answers 501 OAUTH_NOT_CONFIGURED without a client id', async () => {
    const bare = await startServer({ settings: { HERALD_MICROBLOG_API_URL: sim.url } });
    try {
      const k = await bare.login();
      const r = await bare.call('POST', '/microblog/auth', { key: k, body: {} });
      expect(r.status).toBe(501);
      expect(r.body.error).toBe('OAUTH_NOT_CONFIGURED');
    } finally {
      await bare.close();
    }
  });
});

describe('keychain canary', () => {
  it('keeps X tokens out of every file in the data folder', async () => {
    const logged: string[] = [];
    const log = { info: (m: string) => logged.push(m), warn: (m: string) => logged.push(m), error: (m: string, e?: unknown) => logged.push(`${m} ${String(e)}`) };
    const kt = await startServer({ log, settings: settingsFor(sim, { HERALD_SECRET_STORE: 'keychain' }) });
    try {
      expect(t.server.deps.secrets.kind).toBe('file');
      expect(kt.server.deps.secrets.kind).toBe('keychain');
      const k = await kt.login();
      const connected = await connectOAuth(kt, k, 'microblog', {});
      expect(connected.status).toBe(200);
      const id = connected.body.accountUuid as string;
      const krow = () => kt.server.db.select().from(accounts).where(eq(accounts.id, id)).get()!;
      // Rotate once so both generations of tokens are canaries.
      sim.expireAccessTokens();
      await kt.server.services.credentials.withCredentials(krow(), (ctx) => x.publishPost(ctx, post('Canary post')));
      const tokens = sim.issuedTokens();
      expect(tokens.length).toBeGreaterThanOrEqual(4);
      const stored = await kt.server.services.credentials.load(id);
      expect(tokens).toContain(stored!.accessToken);

      const hits: string[] = [];
      const walk = (dir: string) => {
        for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
          const p = path.join(dir, entry.name);
          if (entry.isDirectory()) walk(p);
          else {
            const bytes = fs.readFileSync(p);
            for (const token of tokens) if (bytes.includes(Buffer.from(token))) hits.push(`${p}: ${token.slice(0, 6)}…`);
          }
        }
      };
      kt.server.sqlite.pragma('wal_checkpoint(FULL)');
      walk(kt.dataDir);
      for (const line of logged) for (const token of tokens) if (line.includes(token)) hits.push(`log: ${token.slice(0, 6)}…`);
      expect(hits).toEqual([]);
    } finally {
      await kt.close();
    }
  });
});
