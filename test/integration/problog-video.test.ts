/**
 * LinkedIn videos and documents (issue #35) over HTTP against the LinkedIn simulator's real
 * upload flows (test/simulators/linkedin.media.ts): a video in 4 MiB parts with their ETags,
 * finalized and polled until AVAILABLE, its captions as SRT; a PDF through the Documents API; each
 * posted as content.media {id, title}. Bad inputs fail before anything is sent or charged.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { png, upload } from '../helpers/media-files.js';
import { pdf, timedVideo, vtt } from '../helpers/media-kinds.js';
import { connectAll, startNetworks, useFastPolling, type Networks } from '../helpers/networks.js';
import { LI_PART_BYTES } from '../simulators/linkedin.media.js';

let nets: Networks;
let t: TestServer;
let key: string;
let accountId: string;
const call = (method: string, p: string, body?: unknown) => t.call(method, p, { key, body });
const balance = async () => (await call('POST', '/credits')).body.balance as number;
const sha = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');
// 9 MiB + a little: three parts, the last a short one.
const clip = timedVideo(30_000, 2 * LI_PART_BYTES + LI_PART_BYTES / 4);
const deck = pdf(14, { objectStreams: true });

async function uploadOne(data: Buffer, filename: string, title?: string) {
  const parts = [{ filename, data }, ...(title ? [{ name: 'title', data: Buffer.from(title) }] : [])];
  const r = await upload(t.base, key, parts);
  expect(r.status, r.text).toBe(200);
  return r.body.data.uploads[0].mediaId as string;
}

async function publish(text: string, mediaIds: string[]) {
  const d = await call('POST', '/microblog/drafts', {
    title: text,
    tweets: [{ content: text, media: mediaIds.map((mediaId) => ({ mediaId })) }],
  });
  expect(d.status, d.text).toBe(200);
  return call('POST', '/publish/multi-platform', {
    draftId: d.body.draft.id,
    targetAccounts: [{ accountId, platform: 'problog' }],
  });
}

beforeAll(async () => {
  nets = await startNetworks();
  t = await startServer({
    settings: { ...nets.settings, HERALD_MEDIA_POLL_SECONDS: '0.01', HERALD_MEDIA_PROCESSING_TIMEOUT_SECONDS: '0.5' },
  });
  useFastPolling(t);
  key = await t.login();
  accountId = (await connectAll(t, key, nets)).problog!;
}, 60_000);

afterAll(async () => {
  await t?.close();
  await nets?.close();
});

describe('a video to LinkedIn', () => {
  it('goes up in parts with their ETags, is finalized, waited for and posted as content.media', async () => {
    const id = await uploadOne(clip, 'product-tour.mp4', 'Product tour');
    expect(
      (await call('PUT', `/microblog/media/${id}/captions`, { captions: [{ lang: 'en', vtt: vtt(2) }] })).status,
    ).toBe(200);
    const r = await publish('Our product in 30 seconds', [id]);
    expect(r.status, r.text).toBe(200);
    expect(r.body.summary).toMatchObject({ succeeded: 1, failed: 0 });
    const [video] = [...nets.li.media.videos.values()];
    expect(video.partCount).toBe(3);
    const parts = [0, 1, 2].map((i) => video.parts.get(i)!);
    expect(parts.map((p) => p.sha)).toEqual(
      [0, 1, 2].map((i) => sha(clip.subarray(i * LI_PART_BYTES, (i + 1) * LI_PART_BYTES))),
    );
    expect(video.finalized).toBe(true);
    expect(video.captions).toBe(
      '1\n00:00:00,000 --> 00:00:01,000\nHello there 0\n\n2\n00:00:01,000 --> 00:00:02,000\nHello there 1\n',
    );
    const post = nets.li.postsBy('Herald Tester').at(-1)!;
    expect(post.content).toEqual({ media: { id: video.urn, title: 'Product tour' } });
    expect(nets.li.requests.filter((q) => q.startsWith('GET /rest/videos/')).length).toBeGreaterThanOrEqual(2);
  });

  it('fails with LinkedIn’s reason when processing fails, and after the bounded wait when it never ends', async () => {
    const id = await uploadOne(timedVideo(10_000, 4096), 'clip.mp4');
    const before = await balance();
    nets.li.media.nextVideo = { failWith: 'VIDEO_CODEC_NOT_SUPPORTED' };
    const failed = await publish('A video LinkedIn cannot read', [id]);
    expect(failed.body.summary).toMatchObject({ succeeded: 0, failed: 1 });
    expect(failed.text).toMatch(/VIDEO_CODEC_NOT_SUPPORTED/);
    nets.li.media.nextVideo = { stuck: true };
    const started = Date.now();
    const stuck = await publish('A video that never finishes', [id]);
    expect(stuck.body.summary).toMatchObject({ succeeded: 0, failed: 1 });
    expect(stuck.text).toMatch(/still processing the video after 0.5 s/);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(await balance()).toBe(before);
  });

  it("refuses a video under LinkedIn's 3 s before anything is sent", async () => {
    const id = await uploadOne(timedVideo(2_000, 4096), 'blink.mp4');
    const requests = nets.li.requests.length;
    const r = await publish('Too short', [id]);
    expect(r.status, r.text).toBe(400);
    expect(r.text).toMatch(/at least 3 s/);
    expect(nets.li.requests.length).toBe(requests);
  });
});

describe('a document (PDF) to LinkedIn', () => {
  it('goes through the Documents API and is posted as content.media with its title', async () => {
    const id = await uploadOne(deck, 'deck-final-v3.pdf', 'Ten lessons from a year of posting');
    const r = await publish('My carousel', [id]);
    expect(r.status, r.text).toBe(200);
    expect(r.body.summary).toMatchObject({ succeeded: 1, failed: 0 });
    const [doc] = [...nets.li.media.documents.values()];
    expect(doc.sha).toBe(sha(deck));
    const post = nets.li.postsBy('Herald Tester').at(-1)!;
    expect(post.content).toEqual({ media: { id: doc.urn, title: 'Ten lessons from a year of posting' } });
  });

  it('mixed with an image, is refused before anything is sent or charged', async () => {
    const docId = await uploadOne(pdf(2), 'two.pdf');
    const imgId = await uploadOne(png(10, 10), 'a.png');
    const requests = nets.li.requests.length;
    const before = await balance();
    const r = await publish('A document and an image', [docId, imgId]);
    expect(r.status, r.text).toBe(400);
    expect(r.text).toMatch(/alone in its post/);
    expect(nets.li.requests.length).toBe(requests);
    expect(await balance()).toBe(before);
  });
});
