/**
 * Media end to end (issue 7, last Done-when): files uploaded to Herald over HTTP, referenced by
 * a draft with alt text, published over HTTP, and found at each network byte for byte with the
 * alt text: X (one-shot images with metadata alt text, chunked video with STATUS polling),
 * Mastodon (v2 media with descriptions, video processing), Bluesky (blobs on a real PDS, alt in
 * the embed), LinkedIn (Images API, altText in the post). Networks whose limits refuse a post's
 * media (video on Bluesky and LinkedIn, Herald's files on Threads without a media relay, too many images, an animated
 * GIF over Bluesky's cap, a deleted item) get a clear INVALID_INPUT before anything is sent or
 * charged; a still image over Bluesky's cap is re-encoded under it (sharp) for Bluesky only.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Platform } from '../../server/core/config.js';
import { png, upload, video } from '../helpers/media-files.js';
import {
  connectAll,
  postsOn,
  requestCounts,
  startNetworks,
  threadOf,
  useFastPolling,
  type Networks,
} from '../helpers/networks.js';
import { pngBytes } from '../helpers/png.js';
import { makePng } from '../peers/png.js';

/** A real animated GIF of noise frames (about 220 KB a frame at 400×400). */
async function animatedNoiseGif(frames: number): Promise<Buffer> {
  const { default: sharp } = await import('sharp');
  const stills = await Promise.all(
    Array.from({ length: frames }, () =>
      sharp(crypto.randomBytes(400 * 400 * 3), { raw: { width: 400, height: 400, channels: 3 } })
        .png({ compressionLevel: 0 })
        .toBuffer(),
    ),
  );
  return sharp(stills, { join: { animated: true } })
    .gif({ effort: 1, dither: 0 })
    .toBuffer();
}
import { startServer, type TestServer } from '../helpers/server.js';

// Real servers on a shared 2-core machine: generous per-test time, no wall-clock asserts.
vi.setConfig({ testTimeout: 90_000 });

let nets: Networks;
let t: TestServer;
let key: string;
let ids: Record<Platform, string>;

const sha = (b: Buffer | Uint8Array) => crypto.createHash('sha256').update(b).digest('hex');
const red = pngBytes(64, 48, [220, 30, 30]);
const blue = pngBytes(40, 40, [30, 30, 220]);
// Over 1 MiB, so X takes it in two segments.
const clip = video('mp4', 1_200_000);
const media: Record<'red' | 'blue' | 'clip', string> = { red: '', blue: '', clip: '' };

async function uploadAll(files: { name: string; data: Buffer }[]): Promise<{ mediaId: string; type: string }[]> {
  const r = await upload(
    t.base,
    key,
    files.map((f) => ({ filename: f.name, data: f.data })),
  );
  expect(r.status, r.text).toBe(200);
  return r.body.data.uploads;
}

async function createDraft(
  tweets: { content: string; media?: { mediaId: string; altText?: string }[] }[],
): Promise<string> {
  const r = await t.call('POST', '/microblog/drafts', { key, body: { title: tweets[0].content, tweets } });
  expect(r.status, r.text).toBe(200);
  return r.body.draft.id as string;
}

const publishTo = (draftId: string, platforms: Platform[]) =>
  t.call('POST', '/publish/multi-platform', {
    key,
    body: { draftId, targetAccounts: platforms.map((p) => ({ accountId: ids[p], platform: p })) },
  });
const balance = async () => (await t.call('POST', '/credits', { key })).body.balance as number;

let n = 0;
const label = (s: string) => `${s} (${++n})`;

beforeAll(async () => {
  nets = await startNetworks({ pds: true });
  t = await startServer({ settings: nets.settings });
  useFastPolling(t);
  key = await t.login();
  ids = (await connectAll(t, key, nets)) as Record<Platform, string>;
  const [a, b, c] = await uploadAll([
    { name: 'red.png', data: red },
    { name: 'blue.png', data: blue },
    { name: 'clip.mp4', data: clip },
  ]);
  expect([a.type, b.type, c.type]).toEqual(['image', 'image', 'video']);
  media.red = a.mediaId;
  media.blue = b.mediaId;
  media.clip = c.mediaId;
  // One alt text kept on the media item, one given in the draft.
  const alt = await t.call('PATCH', `/microblog/media/${media.blue}`, { key, body: { altText: 'A blue square' } });
  expect(alt.status, alt.text).toBe(200);
}, 120_000);

afterAll(async () => {
  await t?.close();
  await nets?.close();
});

describe('a draft with two images (alt text) and a video', () => {
  let texts: string[];
  let draftId: string;

  beforeAll(async () => {
    texts = [label('Two photos'), label('A clip'), label('Words only')];
    draftId = await createDraft([
      { content: texts[0], media: [{ mediaId: media.red, altText: 'A red rectangle' }, { mediaId: media.blue }] },
      { content: texts[1], media: [{ mediaId: media.clip, altText: 'Ten seconds of nothing' }] },
      { content: texts[2] },
    ]);
  });

  it(
    'is refused before anything is sent where the network cannot take it: a video with images on LinkedIn, ' +
      'Herald files on Threads',
    async () => {
      const counts = requestCounts(nets);
      const before = await balance();
      const r = await publishTo(draftId, ['microblog', 'fedblog', 'skyblog', 'problog', 'threadblog']);
      expect(r.status, r.text).toBe(400);
      expect(r.body.error).toBe('INVALID_INPUT');
      const messages = (r.body.details as { path: string; message: string }[]).map((d) => d.message);
      expect(messages).toEqual(
        expect.arrayContaining([
          // LinkedIn has no threads: its comments carry text only, so the post carries every part's media,
          // two images and a video.
          'LinkedIn Herald Tester: post 1 of 3 cannot go as it is: LinkedIn takes one video per post, alone',
          'Threads @herald.tester: Threads takes media from a public address: set up a media relay in Settings',
        ]),
      );
      expect(messages.some((m) => /^(X|Mastodon|Bluesky) /.test(m))).toBe(false);
      // One reason per post, however many files it carries.
      expect(messages.filter((m) => m.startsWith('Threads '))).toHaveLength(2);
      expect(r.body.message).toMatch(/^Nothing was sent or charged: /);
      expect(requestCounts(nets)).toEqual(counts);
      expect(await balance()).toBe(before);
    },
  );

  it(
    'publishes to X: images one-shot with their alt text, the ' + 'video in segments after processing, as one thread',
    async () => {
      const r = await publishTo(draftId, ['microblog']);
      expect(r.status, r.text).toBe(200);
      expect(r.body.summary).toEqual({ total: 1, succeeded: 1, failed: 0 });
      const chain = threadOf(await postsOn(nets, 'microblog'), texts);
      expect(chain.map((p) => p.parent)).toEqual([undefined, chain[0].id, chain[1].id]);
      const [photos, clipPost, words] = chain.map((p) => nets.x.state.posts.find((x) => x.id === p.id)!);
      const xmedia = (id: string) => nets.x.state.media.get(id)!;
      expect(photos.mediaIds.map((id) => sha(xmedia(id).bytes!))).toEqual([sha(red), sha(blue)]);
      expect(photos.mediaIds.map((id) => xmedia(id).altText)).toEqual(['A red rectangle', 'A blue square']);
      expect(photos.mediaIds.map((id) => xmedia(id).category)).toEqual(['tweet_image', 'tweet_image']);
      const v = xmedia(clipPost.mediaIds[0]);
      expect(v).toMatchObject({
        category: 'tweet_video',
        state: 'succeeded',
        altText: 'Ten seconds of nothing',
        mediaType: 'video/mp4',
      });
      expect(v.chunks.size).toBe(2);
      expect(sha(v.bytes!)).toBe(sha(clip));
      expect(nets.x.requests.filter((q) => q === 'GET /2/media/upload').length).toBeGreaterThan(0);
      expect(words.mediaIds).toEqual([]);
    },
  );

  it('publishes to Mastodon: attachments with descriptions, the video once processed', async () => {
    const r = await publishTo(draftId, ['fedblog']);
    expect(r.status, r.text).toBe(200);
    expect(r.body.summary.succeeded).toBe(1);
    const chain = threadOf(await postsOn(nets, 'fedblog'), texts);
    expect(chain.map((p) => p.parent)).toEqual([undefined, chain[0].id, chain[1].id]);
    const statuses = chain.map((p) => nets.masto.state.statuses.find((s) => s.id === p.id)!);
    const m = (id: string) => nets.masto.state.media.get(id)!;
    expect(statuses[0].mediaIds.map((id) => [sha(m(id).bytes), m(id).description, m(id).type])).toEqual([
      [sha(red), 'A red rectangle', 'image'],
      [sha(blue), 'A blue square', 'image'],
    ]);
    expect(statuses[1].mediaIds.map((id) => [sha(m(id).bytes), m(id).description, m(id).type])).toEqual([
      [sha(clip), 'Ten seconds of nothing', 'video'],
    ]);
    // The video was polled until the instance finished it.
    expect(nets.masto.requests.some((q) => q === `GET /api/v1/media/${statuses[1].mediaIds[0]}`)).toBe(true);
  });
});

describe('a draft with two images and alt text to Bluesky and LinkedIn', () => {
  it('puts the bytes in PDS blobs and LinkedIn images, with the alt text in the post', async () => {
    const texts = [label('Photo thread'), label('Second photo')];
    const draftId = await createDraft([
      { content: texts[0], media: [{ mediaId: media.red, altText: 'Red, wide' }, { mediaId: media.blue }] },
      { content: texts[1], media: [{ mediaId: media.blue, altText: 'Blue again' }] },
    ]);
    const before = await balance();
    const r = await publishTo(draftId, ['skyblog', 'problog']);
    expect(r.status, r.text).toBe(200);
    expect(r.body.summary).toEqual({ total: 2, succeeded: 2, failed: 0 });
    expect(await balance()).toBe(before - 20);

    const sky = threadOf(await postsOn(nets, 'skyblog'), texts);
    expect(sky[1].parent).toBe(sky[0].id);
    const first = await nets.pds!.getRecord(sky[0].id);
    const images = first.value.embed.images as {
      alt: string;
      image: { ref: { $link: string }; mimeType: string; size: number };
      aspectRatio?: { width: number; height: number };
    }[];
    expect(images.map((i) => i.alt)).toEqual(['Red, wide', 'A blue square']);
    expect(images[0].aspectRatio).toEqual({ width: 64, height: 48 });
    for (const [i, bytes] of [red, blue].entries()) {
      const res = await fetch(
        `${nets.pds!.url}/xrpc/com.atproto.sync.getBlob?did=${nets.sky!.did}&cid=${images[i].image.ref.$link}`,
      );
      expect(res.status).toBe(200);
      expect(sha(Buffer.from(await res.arrayBuffer()))).toBe(sha(bytes));
      expect(images[i].image.mimeType).toBe('image/png');
    }
    expect((await nets.pds!.getRecord(sky[1].id)).value.embed.images.map((i: { alt: string }) => i.alt)).toEqual([
      'Blue again',
    ]);

    // LinkedIn: the first part as the post, with all three images and their alt text (comments carry
    // text only); the others as its comments.
    const held = await postsOn(nets, 'problog');
    const li = threadOf(held, texts);
    expect(li.slice(1).map((c) => [c.parent, c.media.length])).toEqual([[li[0].id, 0]]);
    const post = nets.li.state.posts.find((p) => p.urn === li[0].id)!;
    expect(post.imageUrns.map((urn) => sha(nets.li.state.images.get(urn)!.bytes!))).toEqual([
      sha(red),
      sha(blue),
      sha(blue),
    ]);
    expect(li[0].media.map((m) => m.alt)).toEqual(['Red, wide', 'A blue square', 'Blue again']);
  });
});

describe('per-network media limits, checked before anything is sent', () => {
  it('five images: refused for X, Bluesky and Mastodon (4 each), fine for LinkedIn (20)', async () => {
    const five = (
      await uploadAll([1, 2, 3, 4].map((i) => ({ name: `p${i}.png`, data: pngBytes(8 + i, 8, [i * 40, 90, 90]) })))
    ).map((u) => ({ mediaId: u.mediaId, altText: `image ${u.mediaId.slice(0, 4)}` }));
    five.push({ mediaId: media.red, altText: 'red' });
    const text = label('Five images');
    const draftId = await createDraft([{ content: text, media: five }]);
    const counts = requestCounts(nets);
    const r = await publishTo(draftId, ['microblog', 'skyblog', 'fedblog']);
    expect(r.status, r.text).toBe(400);
    expect((r.body.details as { message: string }[]).map((d) => d.message).sort()).toEqual([
      'Bluesky @herald.test: the post cannot go as it is: Bluesky takes at most 4 images per post',
      'Mastodon @herald: the post cannot go as it is: Mastodon takes at most 4 images per post',
      'X @herald_tester: the post cannot go as it is: X takes at most 4 images per post',
    ]);
    expect(requestCounts(nets)).toEqual(counts);
    const ok = await publishTo(draftId, ['problog']);
    expect(ok.status, ok.text).toBe(200);
    const post = (await postsOn(nets, 'problog')).find((p) => p.text === text)!;
    expect(post.media).toHaveLength(5);
  });

  it(
    "an image over Bluesky's 976,560-byte cap is re-encoded under it for Bluesky, the original going to " + 'Mastodon',
    async () => {
      // A real, decodable PNG of noise (noise does not compress): about 1.05 MB.
      const big = makePng(700, 500, { noise: true });
      expect(big.length).toBeGreaterThan(976_560);
      const [u] = await uploadAll([{ name: 'big.png', data: big }]);
      const text = label('Big picture');
      const draftId = await createDraft([{ content: text, media: [{ mediaId: u.mediaId, altText: 'Static, large' }] }]);
      const r = await publishTo(draftId, ['skyblog', 'fedblog']);
      expect(r.status, r.text).toBe(200);
      expect(r.body.summary).toEqual({ total: 2, succeeded: 2, failed: 0 });

      const [sky] = threadOf(await postsOn(nets, 'skyblog'), [text]);
      const [img] = (await nets.pds!.getRecord(sky.id)).value.embed.images as {
        alt: string;
        image: { ref: { $link: string }; mimeType: string; size: number };
        aspectRatio: { width: number; height: number };
      }[];
      expect(img.alt).toBe('Static, large');
      expect(img.image.mimeType).toBe('image/jpeg');
      expect(img.image.size).toBeLessThanOrEqual(976_560);
      // Same shape: the aspect ratio recorded is the re-encoded image's, 7:5 as the original.
      expect(img.aspectRatio.width / img.aspectRatio.height).toBeCloseTo(700 / 500, 2);
      const res = await fetch(
        `${nets.pds!.url}/xrpc/com.atproto.sync.getBlob?did=${nets.sky!.did}&cid=${img.image.ref.$link}`,
      );
      const blob = Buffer.from(await res.arrayBuffer());
      expect(blob.length).toBe(img.image.size);
      expect(blob.subarray(0, 3).toString('hex')).toBe('ffd8ff');
      // Mastodon takes the file as it is.
      const [masto] = threadOf(await postsOn(nets, 'fedblog'), [text]);
      expect(masto.media).toEqual([expect.objectContaining({ bytes: big.length, alt: 'Static, large' })]);
    },
  );

  it("an animated GIF over Bluesky's cap is refused for Bluesky only, before sending", async () => {
    const [u] = await uploadAll([{ name: 'anim.gif', data: await animatedNoiseGif(5) }]);
    const draftId = await createDraft([
      { content: label('Big GIF'), media: [{ mediaId: u.mediaId, altText: 'moving' }] },
    ]);
    const counts = requestCounts(nets);
    const r = await publishTo(draftId, ['skyblog', 'fedblog']);
    expect(r.status, r.text).toBe(400);
    expect(r.body.details).toEqual([
      {
        path: `targets.${ids.skyblog}.posts.0.media`,
        message: expect.stringContaining("over Bluesky's limit of 976560 bytes"),
      },
    ]);
    expect(requestCounts(nets)).toEqual(counts);
  });

  it('media deleted after the draft named it: refused with the reason, nothing sent', async () => {
    const [u] = await uploadAll([{ name: 'gone.png', data: pngBytes(9, 9, [1, 2, 3]) }]);
    const draftId = await createDraft([{ content: label('Gone'), media: [{ mediaId: u.mediaId }] }]);
    expect((await t.call('DELETE', `/microblog/media/${u.mediaId}`, { key })).status).toBe(200);
    const counts = requestCounts(nets);
    const r = await publishTo(draftId, ['microblog']);
    expect(r.status, r.text).toBe(400);
    expect(r.body.message).toContain('no longer exists');
    expect(requestCounts(nets)).toEqual(counts);
  });
});
