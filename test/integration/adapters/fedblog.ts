/**
 * Mastodon (fedblog) in the adapter contract, against the Mastodon simulator (REST on loopback),
 * and what only Mastodon does: per-instance app registration with the instance's limits kept on
 * the account (and both reused), the Idempotency-Key on every status and across a lost answer,
 * media the instance processes in the background, and the lookup of a reply by its parent.
 */
import { expect, it } from 'vitest';
import { PlatformError } from '../../../server/platforms/errors.js';
import { fedblogAdapter } from '../../../server/platforms/fedblog.adapter.js';
import { connectOAuth } from '../../helpers/oauth-connect.js';
import { pngMedia } from '../../helpers/png.js';
import { startMastodonSimulator, type MastodonSimulator } from '../../simulators/mastodon.simulator.js';
import { gifMedia, resetIn, type Network, type World } from './world.js';

const COLOURS: [number, number, number][] = [
  [20, 200, 20],
  [90, 90, 90],
];
// Not Mastodon's default 500, so the limit on the account can only have come from the instance
// (what the simulator's GET /api/v2/instance announces, with Mastodon's other defaults).
const LIMITS = {
  max_characters: 640,
  characters_reserved_per_url: 23,
  max_media_attachments: 4,
  description_limit: 1500,
};

const status = (sim: MastodonSimulator, id: string) => sim.state.statuses.find((s) => s.id === id);
const instanceReads = (sim: MastodonSimulator) => sim.requests.filter((r) => r === 'GET /api/v2/instance').length;

export const fedblog: Network<MastodonSimulator> = {
  name: 'Mastodon (fedblog)',
  platform: 'fedblog',
  async start() {
    const sim = await startMastodonSimulator({ maxCharacters: LIMITS.max_characters });
    return { sim, close: () => sim.close() };
  },
  adapter: () => fedblogAdapter,
  authBody: (sim) => ({ instanceUrl: sim.url }),
  async connected(w, result) {
    const { sim, t } = w;
    const auth = new URL(result.authUrl);
    expect(`${auth.protocol}//${auth.host}`).toBe(new URL(sim.url).origin);
    expect(auth.searchParams.get('code_challenge_method')).toBe('S256');
    expect(auth.searchParams.get('redirect_uri')).toBe(`${t.server.url}/api/v1/fedblog/callback`);
    expect(sim.state.apps).toHaveLength(1);
    expect(sim.state.apps[0].redirectUris).toContain(`${t.server.url}/api/v1/fedblog/callback`);
    const list = await t.call('GET', '/accounts', { key: w.key });
    const user = sim.state.accounts[0]!;
    expect(list.body.accounts.find((a: any) => a.uuid === w.accountId)).toMatchObject({
      followers_count: user.followers,
      following_count: user.following,
    });
    expect(JSON.parse(w.row().meta)).toMatchObject(LIMITS);
    expect(w.row().serverUrl).toBe(new URL(sim.url).origin);
    expect(instanceReads(sim)).toBe(1);
  },
  tokenCalls: (sim) => sim.requests.filter((r) => r === 'POST /oauth/token').length,
  posts: (sim) => sim.state.statuses.map((s) => ({ id: s.id, text: s.text, replyTo: s.inReplyToId })),
  urlOf: (w, ref) => `${w.sim.url}/@${w.sim.state.accounts[0]!.username}/${ref.id}`,
  threads: 'chain',
  image: (w, i, altText) => pngMedia(w.mediaDir, `picture-${i}.png`, 8 - 2 * i, 6 + 2 * i, COLOURS[i], altText),
  altTexts: (sim, ref) => status(sim, ref.id)!.mediaIds.map((id) => sim.state.media.get(id)?.description),
  fail429(sim) {
    // Mastodon's reset is an ISO 8601 time, read to the second.
    const check = resetIn(300);
    sim.faults.next({ kind: '429', resetInSeconds: 300 }, { route: 'POST /api/v1/statuses' });
    return check;
  },
  failDrop: (sim, times) => sim.faults.next({ kind: 'commit-then-drop' }, { route: 'POST /api/v1/statuses', times }),
  resendsWithKey: true,
  // Mastodon's tokens do not expire: nothing to refresh.
  refuseTokens: (sim) => sim.revokeAllTokens(),
  own: (w) => mastodonOnly(w),
};

function mastodonOnly(world: () => World<MastodonSimulator>): void {
  it('reuses the registered app and the cached instance limits for a second connection', async () => {
    const w = world();
    const reads = instanceReads(w.sim);
    const again = await connectOAuth(w.t, w.key, 'fedblog', { instanceUrl: w.sim.url });
    expect(again.status).toBe(200);
    expect(again.body.accountUuid).toBe(w.accountId);
    expect(w.sim.state.apps).toHaveLength(1);
    expect(instanceReads(w.sim)).toBe(reads);
    expect(JSON.parse(w.row().meta).max_characters).toBe(640);
  });

  it('sends each status with its Idempotency-Key', async () => {
    const w = world();
    const input = w.post('Hello with a key');
    const ref = await w.publish(input);
    expect(status(w.sim, ref.id)!.idempotencyKey).toBe(input.idempotencyKey);
  });

  it('waits for media the instance processes asynchronously (202, then 206 until ready)', async () => {
    const w = world();
    // A real 1x1 GIF: Mastodon turns GIFs into gifv video, processed in the background.
    const bytes = Buffer.from('47494638396101000100800000000000ffffff2c00000000010001000002024401003b', 'hex');
    const ref = await w.publish(w.post('Slow picture', { media: [gifMedia(w, bytes, 'A dot')] }));
    const [mediaId] = status(w.sim, ref.id)!.mediaIds;
    expect(w.sim.state.media.get(mediaId)?.description).toBe('A dot');
    expect(w.sim.requests).toContain(`GET /api/v1/media/${mediaId}`);
  });

  it('creates one status when the answer is lost and the same key is sent again', async () => {
    const w = world();
    const before = w.sim.state.statuses.length;
    w.sim.faults.next({ kind: 'commit-then-drop' }, { route: 'POST /api/v1/statuses', times: 1 });
    const ref = await w.publish(w.post('Exactly once'));
    expect(w.sim.state.statuses.length).toBe(before + 1);
    expect(status(w.sim, ref.id)!.text).toBe('Exactly once');

    // Both tries lost: ambiguous; the engine's next send with the same key still makes one.
    const twice = w.post('Still exactly once');
    w.sim.faults.next({ kind: 'commit-then-drop' }, { route: 'POST /api/v1/statuses', times: 2 });
    const err = await w.publish(twice).catch((e) => e);
    expect(err).toBeInstanceOf(PlatformError);
    expect(err.kind).toBe('ambiguous');
    const again = await w.publish(twice);
    expect(w.sim.state.statuses.length).toBe(before + 2);
    expect(status(w.sim, again.id)!.text).toBe('Still exactly once');
  });

  it('finds a recent post by its plain text and parent', async () => {
    const w = world();
    const since = Date.now();
    const text = 'Lookup root with https://example.com/some/long/path & more';
    const root = await w.publish(w.post(text));
    const reply = await w.publish(w.post('Lookup reply', { replyTo: root }));
    const lookup = (t: string, replyTo?: typeof root) => w.find({ text: t, replyTo, since, idempotencyKey: 'x' });
    expect((await lookup(text))?.id).toBe(root.id);
    expect((await lookup('Lookup reply', root))?.id).toBe(reply.id);
    expect(await lookup('Lookup reply')).toBeNull();
    expect(await lookup('Never posted')).toBeNull();
  });
}
