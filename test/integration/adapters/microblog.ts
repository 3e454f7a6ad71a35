/**
 * X (microblog) in the adapter contract, against the X simulator (API v2 on loopback), and what
 * only X does: where a connected account goes (socialSetId, mode), GIFs uploaded in segments,
 * quotes, the duplicate refusal, a 429 over HTTP refunding its credits, following Herald's own
 * account, a missing client id, and the keychain canary.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { pngMedia } from '../../helpers/png.js';
import { connectOAuth } from '../../helpers/oauth-connect.js';
import { startServer } from '../../helpers/server.js';
import { PlatformError } from '../../../server/platforms/errors.js';
import { microblogAdapter } from '../../../server/platforms/microblog.adapter.js';
import { startXSimulator, type XSimulator } from '../../simulators/x.simulator.js';
import { gifMedia, resetIn, type Network, type World } from './world.js';

const CLIENT = { id: 'herald-test-client', secret: 'herald-test-secret' };
const COLOURS: [number, number, number][] = [
  [220, 20, 20],
  [20, 20, 220],
];

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

const tweet = (sim: XSimulator, id: string) => sim.state.posts.find((p) => p.id === id);
const user = (sim: XSimulator) => sim.state.users[0]!;
const tokenCalls = (sim: XSimulator) => sim.requests.filter((r) => r === 'POST /2/oauth2/token').length;
const media = (sim: XSimulator, id: string) => sim.state.media.get(id);

export const microblog: Network<XSimulator> = {
  name: 'X (microblog)',
  platform: 'microblog',
  async start() {
    const sim = await startXSimulator({ clientId: CLIENT.id, clientSecret: CLIENT.secret });
    return { sim, settings: settingsFor(sim), close: () => sim.close() };
  },
  async connected(w, result) {
    const auth = new URL(result.authUrl);
    expect(auth.searchParams.get('code_challenge_method')).toBe('S256');
    const scopes = ['tweet.read', 'tweet.write', 'users.read', 'media.write', 'offline.access'];
    expect(auth.searchParams.get('scope')?.split(' ')).toEqual(expect.arrayContaining(scopes));
    const list = await w.t.call('GET', '/accounts', { key: w.key });
    const u = user(w.sim);
    expect(list.body.accounts.find((a: any) => a.uuid === w.accountId)).toMatchObject({
      username: u.username,
      followers_count: u.followers,
      following_count: u.following,
    });
  },
  adapter: () => microblogAdapter,
  tokenCalls,
  posts: (sim) => sim.state.posts.map((p) => ({ id: p.id, text: p.text, replyTo: p.replyTo })),
  urlOf: (w, ref) => `https://x.com/${w.row().username}/status/${ref.id}`,
  threads: 'chain',
  image: (w, i, altText) => pngMedia(w.mediaDir, `picture-${i}.png`, 8 - 2 * i, 6 + 2 * i, COLOURS[i], altText),
  altTexts: (sim, ref) => tweet(sim, ref.id)!.mediaIds.map((id) => media(sim, id)?.altText),
  fail429(sim) {
    const check = resetIn(900);
    sim.faults.next({ kind: '429', resetInSeconds: 900 }, { route: 'POST /2/tweets' });
    return check;
  },
  failDrop: (sim, times) => sim.faults.next({ kind: 'commit-then-drop' }, { route: 'POST /2/tweets', times }),
  refresh: {
    expire: async (w) => w.sim.expireAccessTokens(),
    count: (sim) => sim.state.refreshCalls,
    // Refresh tokens are single-use on X: the rotated pair is what was saved.
    check(before, after) {
      expect(after.accessToken).not.toBe(before.accessToken);
      expect(after.refreshToken).not.toBe(before.refreshToken);
    },
  },
  refuseTokens(sim) {
    sim.expireAccessTokens();
    for (const r of sim.state.refreshTokens.values()) r.used = true;
  },
  own: (w) => xOnly(w),
};

function xOnly(world: () => World<XSimulator>): void {
  it('create_new: a set named after the handle; socialSetId: that set; an unknown set: refused before X', async () => {
    const { t, key, accountId, sim } = world();
    const setsHolding = async (id: string) =>
      ((await t.call('GET', '/social-sets', { key })).body.socialSets as any[]).filter((s) =>
        s.accounts.some((a: any) => a.accountId === id),
      );
    const handle = user(sim).username;
    const fresh = await connectOAuth(t, key, 'microblog', { mode: 'create_new' });
    expect(fresh.status, JSON.stringify(fresh.body)).toBe(200);
    expect(fresh.body.accountUuid).toBe(accountId);
    const created = (await setsHolding(accountId)).find((s) => s.id === fresh.body.socialSetId);
    expect(created).toMatchObject({ name: handle, isDefault: false });
    expect(created.accounts.map((a: any) => a.accountId)).toEqual([accountId]);

    const mine = await t.call('POST', '/social-sets', { key, body: { name: 'Launch team' } });
    expect(mine.status, mine.text).toBe(200);
    const added = await connectOAuth(t, key, 'microblog', {
      socialSetId: mine.body.socialSet.id,
      mode: 'add_to_existing',
    });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    expect(added.body.socialSetId).toBe(mine.body.socialSet.id);
    expect((await setsHolding(accountId)).map((s) => s.name).sort()).toEqual(['Default', 'Launch team', handle].sort());

    const calls = tokenCalls(sim);
    const unknown = await t.call('POST', '/microblog/auth', {
      key,
      body: { socialSetId: '00000000-0000-4000-8000-000000000000' },
    });
    expect(unknown.status).toBe(404);
    expect(tokenCalls(sim)).toBe(calls);
  });

  it('uploads a GIF in segments and waits for X to process it', async () => {
    const w = world();
    // A real 1x1 GIF padded with a comment block past 1 MiB, so it takes two segments.
    const head = Buffer.from('474946383961010001008000000000ffffff21fe', 'hex');
    const comment: Buffer[] = [];
    for (let left = 1024 * 1024 + 500; left > 0; left -= 255) {
      comment.push(Buffer.concat([Buffer.from([Math.min(255, left)]), Buffer.alloc(Math.min(255, left), 0x41)]));
    }
    const tail = Buffer.from('002c00000000010001000002024401003b', 'hex');
    const bytes = Buffer.concat([head, ...comment, tail]);
    const ref = await w.publish(w.post('A moving dot', { media: [gifMedia(w, bytes, 'A single dot')] }));
    const [mediaId] = tweet(w.sim, ref.id)!.mediaIds;
    const m = media(w.sim, mediaId)!;
    expect({ bytes: m.bytes?.length, altText: m.altText, state: m.state }).toEqual({
      bytes: bytes.length,
      altText: 'A single dot',
      state: 'succeeded',
    });
    expect([...m.chunks.keys()]).toHaveLength(2);
  });

  it('quotes a post', async () => {
    const w = world();
    const original = await w.publish(w.post('Worth quoting'));
    const ref = await w.publish(w.post('Quoting this', { quote: original }));
    expect(tweet(w.sim, ref.id)!.quoteOf).toBe(original.id);
  });

  it('refuses a duplicate with a message a person can act on', async () => {
    const w = world();
    await w.publish(w.post('Say it once'));
    const err = await w.publish(w.post('Say it once', { idempotencyKey: 'another' })).catch((e) => e);
    expect(err).toBeInstanceOf(PlatformError);
    expect(err.kind).toBe('permanent');
    expect(err.message).toMatch(/already published the same text/);
  });

  it(
    "over HTTP, X's 429 answers 429 RATE_LIMITED with a " + "Retry-After that is X's reset, and refunds the credits",
    async () => {
      const { t, key, accountId, sim, ...w } = world();
      const quoted = await w.publish(w.post('Quote me later'));
      const balance = async () => (await t.call('POST', '/credits', { key })).body.balance as number;
      const before = await balance();
      sim.faults.next({ kind: '429', resetInSeconds: 600 }, { route: 'POST /2/tweets' });
      const r = await t.call('POST', '/microblog/quote', {
        key,
        body: { accountId, content: 'Quoted too fast', quoteTweetId: quoted.id },
      });
      expect(r.status, r.text).toBe(429);
      expect(r.body.error).toBe('RATE_LIMITED');
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(595);
      expect(Number(r.headers.get('retry-after'))).toBeLessThanOrEqual(601);
      expect(await balance()).toBe(before);
    },
  );

  it("follows Herald's own account after connecting when followOnPlatform is set", async () => {
    const { sim } = world();
    const other = await startServer({ settings: settingsFor(sim, { HERALD_MICROBLOG_FOLLOW_USER_ID: '783214' }) });
    try {
      const k = await other.login();
      const before = sim.state.follows.length;
      const connected = await connectOAuth(other, k, 'microblog', { followOnPlatform: true, mode: 'create_new' });
      expect(connected.status).toBe(200);
      expect(sim.state.follows.slice(before)).toEqual([{ source: user(sim).id, target: '783214' }]);
    } finally {
      await other.close();
    }
  });

  it('answers 501 OAUTH_NOT_CONFIGURED without a client id', async () => {
    const bare = await startServer({ settings: { HERALD_MICROBLOG_API_URL: world().sim.url } });
    try {
      const k = await bare.login();
      const r = await bare.call('POST', '/microblog/auth', { key: k, body: {} });
      expect(r.status).toBe(501);
      expect(r.body.error).toBe('OAUTH_NOT_CONFIGURED');
    } finally {
      await bare.close();
    }
  });

  it('keeps X tokens out of every file in the data folder', async () => {
    const { t, sim, post } = world();
    const logged: string[] = [];
    const log = {
      info: (m: string) => logged.push(m),
      warn: (m: string) => logged.push(m),
      error: (m: string, e?: unknown) => logged.push(`${m} ${String(e)}`),
    };
    const kt = await startServer({ log, settings: settingsFor(sim, { HERALD_SECRET_STORE: 'keychain' }) });
    try {
      expect(t.server.deps.secrets.kind).toBe('file');
      expect(kt.server.deps.secrets.kind).toBe('keychain');
      const k = await kt.login();
      const connected = await connectOAuth(kt, k, 'microblog', {});
      expect(connected.status).toBe(200);
      const id = connected.body.accountUuid as string;
      const me = await kt.call('GET', '/me', { key: k });
      const krow = () => kt.server.services.accounts.row(me.body.uuid, id);
      // Rotate once so both generations of tokens are canaries.
      sim.expireAccessTokens();
      const x = kt.server.deps.platforms.get('microblog');
      await kt.server.services.credentials.withCredentials(krow(), (ctx) => x.publishPost(ctx, post('Canary post')));
      const tokens = [...sim.state.issuedTokens];
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
            for (const token of tokens)
              if (bytes.includes(Buffer.from(token))) hits.push(`${p}: ${token.slice(0, 6)}…`);
          }
        }
      };
      kt.server.sqlite.pragma('wal_checkpoint(FULL)');
      walk(kt.dataDir);
      for (const line of logged)
        for (const token of tokens) if (line.includes(token)) hits.push(`log: ${token.slice(0, 6)}…`);
      expect(hits).toEqual([]);
    } finally {
      await kt.close();
    }
  });
}
