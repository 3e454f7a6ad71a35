/**
 * Bluesky video (issue #35) over HTTP: a real PDS (@atproto/pds), the video-service simulator
 * (test/simulators/bsky-video.simulator.ts) that stores the processed blob on that PDS with the
 * user's service-auth token, and Herald publishing through POST /publish/multi-platform. The PDS
 * itself holds the record and the blob afterwards. Processing waits are bounded by a short
 * configured timeout.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { upload } from '../helpers/media-files.js';
import { timedVideo, vtt } from '../helpers/media-kinds.js';
import { startBskyVideoSim, type BskyVideoSim } from '../simulators/bsky-video.simulator.js';
import { startPds, type PdsAccount, type PdsPeer } from './pds.js';

let pds: PdsPeer;
let sim: BskyVideoSim;
let t: TestServer;
let key: string;
let alice: PdsAccount;
let accountId: string;
const clip = timedVideo(12_000, 300_000, [1080, 1920]);
let clipId: string;

const call = (method: string, p: string, body?: unknown) => t.call(method, p, { key, body });
const balance = async () => (await call('POST', '/credits')).body.balance as number;
const sha = (b: Uint8Array) => crypto.createHash('sha256').update(b).digest('hex');

let lastDraft = '';
async function publishVideo(text: string, mediaId = clipId) {
  const d = await call('POST', '/microblog/drafts', { title: text, tweets: [{ content: text, media: [{ mediaId }] }] });
  expect(d.status, d.text).toBe(200);
  lastDraft = d.body.draft.id;
  return call('POST', '/publish/multi-platform', {
    draftId: d.body.draft.id,
    targetAccounts: [{ accountId, platform: 'skyblog' }],
  });
}

beforeAll(async () => {
  pds = await startPds();
  sim = await startBskyVideoSim({ pdsUrl: pds.url });
  t = await startServer({
    settings: {
      HERALD_SKYBLOG_VIDEO_URL: sim.url,
      HERALD_MEDIA_POLL_SECONDS: '0.02',
      HERALD_MEDIA_PROCESSING_TIMEOUT_SECONDS: '1.5',
    },
  });
  key = await t.login();
  alice = await pds.createAccount('alice');
  const r = await call('POST', '/skyblog/auth', {
    identifier: alice.handle,
    appPassword: alice.appPassword,
    service: pds.url,
  });
  expect(r.status, r.text).toBe(200);
  accountId = r.body.account.uuid;
  const up = await upload(t.base, key, [{ filename: 'launch.mp4', data: clip }]);
  expect(up.status, up.text).toBe(200);
  clipId = up.body.data.uploads[0].mediaId;
  expect((await call('PUT', `/microblog/media/${clipId}`, { altText: 'A rocket lifts off at dawn' })).status).toBe(200);
  const caps = await call('PUT', `/microblog/media/${clipId}/captions`, {
    captions: [
      { lang: 'en', vtt: vtt(3, 'Liftoff') },
      { lang: 'fr', vtt: vtt(2, 'Décollage') },
    ],
  });
  expect(caps.status, caps.text).toBe(200);
}, 120_000);

afterAll(async () => {
  await t?.close();
  await sim?.close();
  await pds?.close();
});

describe('a video to Bluesky through the video service', () => {
  it('is uploaded to the service, stored on the PDS by it, and posted as app.bsky.embed.video', async () => {
    const r = await publishVideo('Launch day');
    expect(r.status, r.text).toBe(200);
    expect(r.body.summary).toMatchObject({ succeeded: 1, failed: 0 });
    // Limits first (its own token), then the upload (a token for the PDS), then polling.
    expect(sim.requests.slice(0, 2)).toEqual(['GET app.bsky.video.getUploadLimits', 'POST app.bsky.video.uploadVideo']);
    expect(sim.requests.filter((q) => q === 'GET app.bsky.video.getJobStatus').length).toBeGreaterThanOrEqual(2);
    expect(sim.refused).toEqual([]);
    expect(sim.uploadedBytes).toEqual([clip.length]);
    const [post] = await pds.listPosts(alice.did);
    expect(post.value.text).toBe('Launch day');
    const embed = post.value.embed;
    expect(embed).toMatchObject({
      $type: 'app.bsky.embed.video',
      alt: 'A rocket lifts off at dawn',
      aspectRatio: { width: 1080, height: 1920 },
      video: { $type: 'blob', mimeType: 'video/mp4', size: clip.length },
    });
    expect(embed.captions.map((c: any) => [c.lang, c.file.mimeType])).toEqual([
      ['en', 'text/vtt'],
      ['fr', 'text/vtt'],
    ]);
    // The PDS holds the very bytes, stored there by the service with the user's token.
    const blob = await fetch(`${pds.url}/xrpc/com.atproto.sync.getBlob?did=${alice.did}&cid=${embed.video.ref.$link}`);
    expect(blob.status).toBe(200);
    expect(sha(new Uint8Array(await blob.arrayBuffer()))).toBe(sha(clip));
    const cap = await fetch(
      `${pds.url}/xrpc/com.atproto.sync.getBlob?did=${alice.did}&cid=${embed.captions[0].file.ref.$link}`,
    );
    expect(await cap.text()).toBe(vtt(3, 'Liftoff'));
  });

  const failsWith = async (text: string, why: RegExp) => {
    const before = await balance();
    const posts = (await pds.listPosts(alice.did)).length;
    const r = await publishVideo(text);
    expect(r.status, r.text).toBe(200);
    expect(r.body.summary).toMatchObject({ succeeded: 0, failed: 1 });
    expect(r.text).toMatch(why);
    expect(await balance()).toBe(before);
    expect((await pds.listPosts(alice.did)).length).toBe(posts);
  };

  it("fails the target with the service's message when the job fails; nothing charged, nothing posted", async () => {
    sim.outcomes.push('failed');
    await failsWith('A failing video', /moov atom has no video track/);
  });

  it('fails the target when the service answers without a jobId', async () => {
    sim.outcomes.push('no-job');
    await failsWith('A video without a job', /did not start a job.*Video too complex/);
  });

  it('fails the target after the bounded wait when processing never ends; progress says "processing"', async () => {
    sim.outcomes.push('never');
    const started = Date.now();
    const seen = new Set<string | null>();
    let done = false;
    const watching = (async () => {
      while (!done) {
        if (lastDraft) {
          const p = await call('GET', `/microblog/publish/progress?draftId=${lastDraft}`);
          for (const e of p.body.entries ?? []) if (e.status === 'publishing') seen.add(e.waitingFor);
        }
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
    await failsWith('A video that never finishes', /still processing the video after 1.5 s/);
    done = true;
    await watching;
    expect(seen).toContain('processing');
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('does not upload when the service says canUpload: false, and says why', async () => {
    sim.limits = { canUpload: false, message: 'You have reached your daily upload limit' };
    const uploads = sim.uploadedBytes.length;
    try {
      const before = await balance();
      const r = await publishVideo('Over the daily quota');
      expect(r.text).toMatch(/daily upload limit/);
      expect(sim.uploadedBytes.length).toBe(uploads);
      expect(await balance()).toBe(before);
    } finally {
      sim.limits = { canUpload: true };
    }
  });

  it('holds a scheduled video for the quota when the service says canUpload: false', async () => {
    sim.limits = { canUpload: false, message: 'You have reached your daily upload limit' };
    const uploads = sim.uploadedBytes.length;
    try {
      const d = await call('POST', '/microblog/drafts', {
        title: 'Held video',
        tweets: [{ content: 'Held video', media: [{ mediaId: clipId }] }],
      });
      const due = Date.now() + 1500;
      const s = await call('POST', '/microblog/schedule', {
        draftId: d.body.draft.id,
        scheduledFor: new Date(due).toISOString(),
        targetAccounts: [{ accountId, platform: 'skyblog' }],
        applyJitter: false,
      });
      expect(s.status, s.text).toBe(200);
      const before = await balance();
      await new Promise((r) => setTimeout(r, Math.max(0, due - Date.now() + 50)));
      await t.server.scheduler!.tick();
      const entry = (await call('GET', `/microblog/publish/progress?draftId=${d.body.draft.id}`)).body.entries[0];
      expect(entry).toMatchObject({ status: 'pending', waitingFor: 'quota' });
      expect(entry.statusText).toMatch(/daily upload limit/);
      expect(sim.uploadedBytes.length).toBe(uploads);
      expect(await balance()).toBe(before);
    } finally {
      sim.limits = { canUpload: true };
    }
  });

  it("refuses a video over Bluesky's 3 minutes before anything is sent", async () => {
    const up = await upload(t.base, key, [{ filename: 'long.mp4', data: timedVideo(181_000, 1000) }]);
    const requests = sim.requests.length;
    const r = await publishVideo('Too long', up.body.data.uploads[0].mediaId);
    expect(r.status, r.text).toBe(400);
    expect(r.text).toMatch(/3 min/);
    expect(sim.requests.length).toBe(requests);
  });
});
