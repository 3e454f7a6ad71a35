/**
 * Threads with media uploaded to Herald (docs/decisions.md §11): Threads only downloads media
 * from a URL, so each file goes to the media relay (a real S3-compatible server on loopback,
 * s3rver behind a Signature V4 check: test/peers/s3.peer.ts) just before its container is made,
 * the Threads simulator downloads it from the presigned URL as Meta does, and the object is
 * deleted once the container is FINISHED or the target ends, published or failed: no file is
 * left in the bucket. Without a relay the post is refused before anything is sent or charged;
 * a relay object Threads cannot fetch fails the target with the reason, refunded. Carousels take
 * up to 20 uploaded items.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { upload } from '../helpers/media-files.js';
import { startNetworks, useFastPolling, type Networks } from '../helpers/networks.js';
import { connectOAuth } from '../helpers/oauth-connect.js';
import { pngBytes } from '../helpers/png.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { startS3, type S3Peer } from '../peers/s3.peer.js';

vi.setConfig({ testTimeout: 60_000 });

let nets: Networks;
let s3: S3Peer;
let t: TestServer;
let key: string;
let account: string;

const sha = (b: Buffer | Uint8Array) => crypto.createHash('sha256').update(b).digest('hex');
/** `n` distinct small PNGs, uploaded; their ids and bytes in order. */
async function uploadPngs(n: number): Promise<{ mediaId: string; bytes: Buffer }[]> {
  const files = Array.from({ length: n }, (_, i) => pngBytes(16 + i, 16, [(i * 37) % 256, 90, 200]));
  const ids: string[] = [];
  // At most 4 files per upload request.
  for (let i = 0; i < n; i += 4) {
    const batch = files.slice(i, i + 4).map((data, j) => ({ filename: `item-${i + j}.png`, data }));
    const r = await upload(t.base, key, batch);
    expect(r.status, r.text).toBe(200);
    ids.push(...(r.body.data.uploads as { mediaId: string }[]).map((u) => u.mediaId));
  }
  return ids.map((mediaId, i) => ({ mediaId, bytes: files[i] }));
}

async function draftWith(text: string, media: { mediaId: string; altText?: string }[]): Promise<string> {
  const r = await t.call('POST', '/microblog/drafts', {
    key,
    body: { title: text, tweets: [{ content: text, media }] },
  });
  expect(r.status, r.text).toBe(200);
  return r.body.draft.id as string;
}

const publish = (draftId: string) =>
  t.call('POST', '/publish/multi-platform', {
    key,
    body: { draftId, targetAccounts: [{ accountId: account, platform: 'threadblog' }] },
  });
const balance = async () => (await t.call('POST', '/credits', { key })).body.balance as number;
const setRelay = async () => {
  const r = await t.call('PUT', '/media-relay', {
    key,
    body: {
      kind: 's3',
      endpoint: s3.endpoint,
      region: s3.region,
      bucket: s3.bucket,
      prefix: 'threads/',
      accessKeyId: s3.accessKeyId,
      secretAccessKey: s3.secretAccessKey,
    },
  });
  expect(r.status, r.text).toBe(200);
};

/** The post Threads holds for `text`, with each item's downloaded bytes and alt text, in order. */
function heldPost(text: string) {
  const post = nets.threads.state.posts.find((p) => p.text === text);
  if (!post) return undefined;
  const container = nets.threads.state.containers.get(post.containerId)!;
  const items = (container.children.length ? container.children : [container.id]).map((id) =>
    nets.threads.state.containers.get(id)!,
  );
  return {
    post,
    items: items.map((c) => ({ sha: c.fetched && sha(c.fetched.bytes), alt: c.altText, url: c.mediaUrl })),
  };
}

beforeAll(async () => {
  [nets, s3] = await Promise.all([startNetworks(), startS3()]);
  t = await startServer({ settings: nets.settings });
  useFastPolling(t);
  key = await t.login();
  const c = await connectOAuth(t, key, 'threadblog');
  expect(c.status).toBe(200);
  account = c.body.accountUuid as string;
}, 60_000);

afterAll(async () => {
  await t?.close();
  await Promise.all([nets?.close(), s3?.close()]);
});

describe('Threads with uploaded media', () => {
  it('without a relay: refused before anything is sent or charged, with the verdict naming the fix', async () => {
    const [img] = await uploadPngs(1);
    const draftId = await draftWith('No relay yet', [{ mediaId: img.mediaId }]);
    const before = await balance();
    const requests = nets.threads.requests.length;
    const r = await publish(draftId);
    expect(r.status, r.text).toBe(400);
    expect(r.body.details).toEqual([
      {
        path: `targets.${account}.posts.0.media`,
        message: 'Threads @herald.tester: Threads takes media from a public address: set up a media relay in Settings',
      },
    ]);
    expect(await balance()).toBe(before);
    expect(nets.threads.requests.length).toBe(requests);
    const networks = await t.call('GET', `/microblog/drafts/${draftId}/networks`, { key });
    expect(networks.body.networks[0]).toMatchObject({
      valid: false,
      posts: [{ valid: false, reason: 'Threads takes media from a public address: set up a media relay in Settings' }],
    });
  });

  it('one image: put on the relay, fetched by Threads from a presigned URL, deleted once FINISHED', async () => {
    await setRelay();
    const [img] = await uploadPngs(1);
    const draftId = await draftWith('One relayed image', [{ mediaId: img.mediaId, altText: 'A small square' }]);
    const r = await publish(draftId);
    expect(r.status, r.text).toBe(200);
    expect(r.body.summary).toEqual({ total: 1, succeeded: 1, failed: 0 });
    const held = heldPost('One relayed image')!;
    expect(held.items).toHaveLength(1);
    expect(held.items[0]).toMatchObject({ sha: sha(img.bytes), alt: 'A small square' });
    const url = new URL(held.items[0].url!);
    expect(url.origin).toBe(s3.endpoint);
    expect(url.pathname).toMatch(/^\/herald-relay\/threads\/[0-9a-f-]{36}\.png$/);
    expect(url.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
    const key1 = url.pathname.slice('/herald-relay/'.length);
    const steps = s3.log.filter((l) => l.path.endsWith(key1)).map((l) => `${l.method} ${l.ok}`);
    expect(steps).toEqual(['PUT true', 'GET true', 'DELETE true']);
    expect(await s3.keys()).toEqual([]);
  });

  it('a carousel of 20 uploaded images, in order, each fetched by Threads, none left behind', async () => {
    const imgs = await uploadPngs(20);
    const draftId = await draftWith(
      'Twenty relayed images',
      imgs.map((m, i) => ({ mediaId: m.mediaId, altText: `Image ${i + 1}` })),
    );
    const r = await publish(draftId);
    expect(r.status, r.text).toBe(200);
    expect(r.body.summary).toEqual({ total: 1, succeeded: 1, failed: 0 });
    const held = heldPost('Twenty relayed images')!;
    expect(held.post.mediaType).toBe('CAROUSEL_ALBUM');
    expect(held.items.map((i) => i.sha)).toEqual(imgs.map((m) => sha(m.bytes)));
    expect(held.items.map((i) => i.alt)).toEqual(imgs.map((_, i) => `Image ${i + 1}`));
    expect(await s3.keys()).toEqual([]);
  });

  it('an object Threads cannot fetch: the target fails with the reason, is refunded, nothing stays', async () => {
    const [img] = await uploadPngs(1);
    const draftId = await draftWith('Unreachable relay object', [{ mediaId: img.mediaId }]);
    const before = await balance();
    s3.refuseGets = true;
    let r;
    try {
      r = await publish(draftId);
    } finally {
      s3.refuseGets = false;
    }
    expect(r.status, r.text).toBe(200);
    expect(r.body.summary).toEqual({ total: 1, succeeded: 0, failed: 1 });
    expect(r.body.results[0].error.message).toMatch(
      /Threads could not fetch the file from the media relay \(UNKNOWN\): its address must be reachable/,
    );
    expect(nets.threads.state.fetches!.at(-1)).toMatchObject({ status: 403, ok: false });
    expect(heldPost('Unreachable relay object')).toBeUndefined();
    expect(await balance()).toBe(before);
    expect(await s3.keys()).toEqual([]);
  });
});
