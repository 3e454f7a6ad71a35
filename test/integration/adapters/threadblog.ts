/**
 * Threads (threadblog) in the adapter contract, against the Threads simulator, and what only
 * Threads does: the long-lived token exchange, containers that take time to be ready (and the
 * "Media Not Found" race), reply control, media fetched by Threads from a public URL (a loopback
 * image server here): carousels, video, a container Threads could not prepare, local media
 * refused, and a lost reply found among the replies.
 */
import http from 'node:http';
import { expect, it } from 'vitest';
import type { MediaItem, PostRef } from '../../../server/platforms/adapter.js';
import { PlatformError } from '../../../server/platforms/errors.js';
import { createThreadblogAdapter } from '../../../server/platforms/threadblog.adapter.js';
import { png, video } from '../../helpers/media-files.js';
import { startThreadsSimulator, type ThreadsSimulator } from '../../simulators/threads.simulator.js';
import type { Network, World } from './world.js';

/** The simulator and the server it fetches media from. */
type Sim = ThreadsSimulator & { imageBase: string };

const bodies = new Map([
  ['red', png(5, 5, 30)],
  ['blue', png(5, 5, 60)],
  ['clip', video('mp4', 2048)],
]);
const image = (sim: Sim, name: string, altText: string): MediaItem => ({
  path: '',
  mime: 'image/png',
  size: 0,
  kind: 'image',
  altText,
  publicUrl: `${sim.imageBase}/${name}.png`,
});
const clip = (sim: Sim, altText: string): MediaItem => ({
  path: '',
  mime: 'video/mp4',
  size: 0,
  kind: 'video',
  altText,
  publicUrl: `${sim.imageBase}/clip.mp4`,
});
const made = (sim: Sim, id: string) => sim.state.posts.find((p) => p.id === id);

async function startImages(): Promise<{ server: http.Server; base: string }> {
  const server = http.createServer((req, res) => {
    const body = bodies.get((req.url ?? '').replace(/^\/|\.(png|mp4)$/g, ''));
    if (!body) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': req.url?.endsWith('.mp4') ? 'video/mp4' : 'image/png' });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, base: `http://127.0.0.1:${(server.address() as { port: number }).port}` };
}

export const threadblog: Network<Sim> = {
  name: 'Threads (threadblog)',
  platform: 'threadblog',
  async start() {
    const images = await startImages();
    const sim = Object.assign(await startThreadsSimulator({ containerReadyMs: 60 }), { imageBase: images.base });
    return {
      sim,
      settings: {
        HERALD_THREADBLOG_API_URL: sim.url,
        HERALD_THREADBLOG_AUTHORIZE_URL: sim.authorizeUrl,
        HERALD_THREADBLOG_TOKEN_URL: sim.tokenUrl,
        HERALD_THREADBLOG_CLIENT_ID: sim.clientId,
        HERALD_THREADBLOG_CLIENT_SECRET: sim.clientSecret,
      },
      close: async () => {
        await sim.close();
        await new Promise((resolve) => images.server.close(resolve));
      },
    };
  },
  adapter: () => createThreadblogAdapter({ pollIntervalMs: 20, retryDelayMs: 20 }),
  async connected(w, result) {
    const scope = new URL(result.authUrl).searchParams.get('scope');
    expect(scope).toBe(
      'threads_basic,threads_content_publish,threads_manage_replies,threads_manage_insights,threads_delete',
    );
    expect(w.sim.state.exchangeCalls).toBe(1);
    const list = await w.t.call('GET', '/accounts', { key: w.key });
    expect(list.body.accounts.find((a: any) => a.uuid === w.accountId)).toMatchObject({ username: 'herald.tester' });
    // The long-lived token (60 days), not the short-lived one the code bought.
    const creds = (await w.t.server.services.credentials.load(w.accountId))!;
    expect(creds.accessToken).toMatch(/^canary-threads-long-/);
    expect(creds.expiresAt! - Date.now()).toBeGreaterThan(59 * 86_400_000);
  },
  tokenCalls: (sim) => sim.requests.filter((r) => r === 'POST /oauth/access_token').length,
  posts: (sim) => sim.state.posts.map((p) => ({ id: p.id, text: p.text, replyTo: p.replyToId })),
  urlOf: (w, ref) => `https://www.threads.net/@herald.tester/post/${made(w.sim, ref.id)!.shortcode}`,
  threads: 'chain',
  image: (w, i, altText) => image(w.sim, i === 0 ? 'red' : 'blue', altText),
  altTexts: (sim, ref) => made(sim, ref.id)!.children.map((id) => sim.state.containers.get(id)!.altText),
  fail429(sim) {
    sim.faults.next({ kind: '429' }, { route: '/threads_publish' });
    // Threads sends no reset: the adapter's own backoff decides.
    return () => {};
  },
  failDrop: (sim, times) => sim.faults.next({ kind: 'commit-then-drop' }, { route: '/threads_publish', times }),
  refresh: {
    // Threads renews a long-lived token at least a day old that has not expired yet.
    async expire(w) {
      w.sim.ageTokens(2 * 86_400);
      const credentials = w.t.server.services.credentials;
      const saved = (await credentials.load(w.accountId))!;
      expect(saved.refreshToken).toBe(saved.accessToken);
      await credentials.save(w.accountId, { ...saved, expiresAt: Date.now() + 30_000 });
    },
    count: (sim) => sim.state.refreshCalls,
    check: (_before, after) => expect(after.expiresAt! - Date.now()).toBeGreaterThan(59 * 86_400_000),
  },
  // Threads cannot renew a token that has already expired.
  refuseTokens: (sim) => sim.expireAccessTokens(),
  own: (w) => threadsOnly(w),
};

function threadsOnly(world: () => World<Sim>): void {
  it('a text post is a TEXT_POST', async () => {
    const w = world();
    const ref = await w.publish(w.post('Plain words'));
    expect(made(w.sim, ref.id)).toMatchObject({ text: 'Plain words', mediaType: 'TEXT_POST' });
  });

  it(
    'waits for containers, so publishing never hits Media Not Found, and chains replies with their reply ' + 'control',
    async () => {
      const w = world();
      const parts = ['Sim one', 'Sim two', 'Sim three'].map((text) =>
        w.post(text, { options: { replyControl: 'accounts_you_follow' } }),
      );
      const refs = await w.thread(parts);
      const chain = refs.map((r) => made(w.sim, r.id)!);
      expect(chain.map((p) => p.replyToId)).toEqual([undefined, refs[0].id, refs[1].id]);
      expect(refs[0].url).toMatch(/^https:\/\/www\.threads\.net\/@herald\.tester\/post\//);
      expect(chain.every((p) => p.replyControl === 'accounts_you_follow')).toBe(true);
      expect(w.sim.state.notReadyPublishes).toBe(0);
    },
  );

  it('retries the "Media Not Found" race and publishes once', async () => {
    const w = world();
    w.sim.state.publishRaces = 2;
    const ref = await w.publish(w.post('After the race'));
    expect(w.sim.state.publishRaces).toBe(0);
    expect(w.sim.countPosts('herald.tester', 'After the race')).toBe(1);
    expect(w.sim.state.posts.at(-1)!.id).toBe(ref.id);
  });

  it('refuses media without a public URL and no relay before anything is sent', async () => {
    const w = world();
    const before = w.sim.requests.length;
    const local: MediaItem = { path: '/tmp/x.png', mime: 'image/png', size: 1, kind: 'image', altText: '' };
    const err = await w.publish(w.post('local file', { media: [local] })).catch((e) => e);
    expect(err).toBeInstanceOf(PlatformError);
    expect(err.kind).toBe('permanent');
    expect(err.message).toMatch(/public address: set up a media relay in Settings/);
    expect(w.sim.requests.length).toBe(before);
  });

  it('a container Threads could not prepare fails for good with its reason, and nothing is published', async () => {
    const w = world();
    const before = w.sim.state.posts.length;
    const broken = { ...image(w.sim, 'red', ''), publicUrl: `${w.sim.imageBase}/gone.gif` };
    const err = await w.publish(w.post('Broken image', { media: [broken] })).catch((e) => e);
    expect(err).toBeInstanceOf(PlatformError);
    expect(err.kind).toBe('permanent');
    expect(err.message).toMatch(/could not prepare the post \(UNKNOWN\)/);
    expect(w.sim.state.posts.length).toBe(before);
  });

  it('publishes a carousel of two images the simulator downloads', async () => {
    const w = world();
    const ref = await w.publish(
      w.post('Carousel', { media: [image(w.sim, 'red', 'Red'), image(w.sim, 'blue', 'Blue')] }),
    );
    const post = made(w.sim, ref.id)!;
    expect(post.mediaType).toBe('CAROUSEL_ALBUM');
    const kids = post.children.map((id) => w.sim.state.containers.get(id)!);
    expect(kids.map((k) => k.mediaUrl)).toEqual([`${w.sim.imageBase}/red.png`, `${w.sim.imageBase}/blue.png`]);
    expect(kids.map((k) => k.fetched?.bytes.length)).toEqual([bodies.get('red')!.length, bodies.get('blue')!.length]);
    expect(kids.map((k) => [k.mediaType, k.altText, k.isCarouselItem])).toEqual([
      ['IMAGE', 'Red', true],
      ['IMAGE', 'Blue', true],
    ]);
  });

  it('publishes a video with its alt text, and a carousel of an image and a video', async () => {
    const w = world();
    const one = await w.publish(w.post('A clip', { media: [clip(w.sim, 'Ten seconds of nothing')] }));
    const single = made(w.sim, one.id)!;
    expect(single.mediaType).toBe('VIDEO');
    const container = w.sim.state.containers.get(single.containerId)!;
    const expected = [`${w.sim.imageBase}/clip.mp4`, 'Ten seconds of nothing', bodies.get('clip')!.length];
    expect([container.mediaUrl, container.altText, container.fetched?.bytes.length]).toEqual(expected);

    const mixed = await w.publish(
      w.post('Picture and clip', { media: [image(w.sim, 'red', 'Red again'), clip(w.sim, 'The clip again')] }),
    );
    const post = made(w.sim, mixed.id)!;
    expect(post.mediaType).toBe('CAROUSEL_ALBUM');
    const kinds = post.children.map((id) => w.sim.state.containers.get(id)!).map((k) => [k.mediaType, k.altText]);
    expect(kinds).toEqual([
      ['IMAGE', 'Red again'],
      ['VIDEO', 'The clip again'],
    ]);
  });

  it('finds a lost reply among the replies, with its parent', async () => {
    const w = world();
    const first = await w.publish(w.post('Parent post'));
    w.sim.faults.next({ kind: 'commit-then-drop' }, { route: '/threads_publish' });
    const err = await w.publish(w.post('Child reply', { replyTo: first })).catch((e) => e);
    expect(err.kind).toBe('ambiguous');
    const child = w.sim.state.posts.at(-1)!;
    expect(child).toMatchObject({ text: 'Child reply', replyToId: first.id });
    const find = (replyTo: PostRef) =>
      w.find({ text: 'Child reply', replyTo, since: Date.now() - 60_000, idempotencyKey: 'k' });
    expect((await find(first))?.id).toBe(child.id);
    expect(await find({ id: '17900000000000001', url: '' })).toBeNull();
  });
}
