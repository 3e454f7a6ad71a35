/**
 * A 20-item Threads carousel through the media relay (#35): Herald (compiled, its own process)
 * puts each image in a real S3-compatible server (s3rver behind its Signature V4 check,
 * test/peers/s3.peer.ts), the Threads simulator downloads each from its presigned URL as Meta
 * does, and the objects are deleted. The bucket's uplink is held to BENCH_UPLINK_MBPS (default 10
 * MB/s, 80 Mbit/s, shared by every upload) so the uploads take the time they take on a real line. Baseline,
 * same run: the same 20 files put into the same bucket through the same relay module
 * (server/net/media-relay.ts) with the same concurrency, nothing else. Goal (issue #35): the whole
 * publish costs at most 1.2× its uploads; exits 1 when it is missed.
 */
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { S3Relay } from '../server/net/media-relay.js';
import { RELAY_UPLOADS_AT_ONCE } from '../server/platforms/threadblog/relayed-media.js';
import { upload } from '../test/helpers/media-files.js';
import { makePng } from '../test/peers/png.js';
import { startS3 } from '../test/peers/s3.peer.js';
import { finishGoals, fmt, goal, printTable, spread, startHerald, stats, tempDir } from './lib.js';
import { connectSimulators, startSimulators } from './networks.js';

const GOAL = 1.2;
const RUNS = Math.max(3, Number(process.env.BENCH_RUNS ?? 5));
const ITEMS = 20;
const UPLINK = Number(process.env.BENCH_UPLINK_MBPS ?? 10) * 1e6;

const sims = await startSimulators();
const s3 = await startS3({ uploadBytesPerSecond: UPLINK });
const h = await startHerald(sims.settings);
const dir = tempDir('herald-relay-bench-');
try {
  const { threadblog } = await connectSimulators(h, sims);
  await h.ok('PUT', '/media-relay', {
    kind: 's3',
    endpoint: s3.endpoint,
    region: s3.region,
    bucket: s3.bucket,
    prefix: 'bench/',
    accessKeyId: s3.accessKeyId,
    secretAccessKey: s3.secretAccessKey,
  });
  // Noise PNGs of about 1 MB: photos do not compress either.
  const files = Array.from({ length: ITEMS }, (_, i) => {
    const bytes = makePng(580, 580, { noise: true });
    const file = path.join(dir, `photo-${i}.png`);
    fs.writeFileSync(file, bytes);
    return { file, bytes };
  });
  const total = files.reduce((n, f) => n + f.bytes.length, 0);
  const mediaIds: string[] = [];
  for (let i = 0; i < ITEMS; i += 4) {
    const r = await upload(
      h.base,
      h.key,
      files.slice(i, i + 4).map((f, j) => ({ filename: `photo-${i + j}.png`, data: f.bytes })),
    );
    if (r.status !== 200) throw new Error(`upload answered ${r.status}: ${r.text}`);
    mediaIds.push(...(r.body.data.uploads as { mediaId: string }[]).map((u) => u.mediaId));
  }
  const relay = new S3Relay({
    endpoint: s3.endpoint,
    region: s3.region,
    bucket: s3.bucket,
    prefix: 'baseline/',
    accessKeyId: s3.accessKeyId,
    secretAccessKey: s3.secretAccessKey,
    urlTtlSeconds: 3600,
  });
  const uploadsOnly = async () => {
    const started = performance.now();
    let next = 0;
    const keys: string[] = [];
    await Promise.all(
      Array.from({ length: RELAY_UPLOADS_AT_ONCE }, async () => {
        while (next < ITEMS) {
          const f = files[next++];
          const key = `baseline/${crypto.randomUUID()}.png`;
          await relay.putFile(key, { path: f.file, size: f.bytes.length, mime: 'image/png' });
          keys.push(key);
        }
      }),
    );
    const ms = performance.now() - started;
    // One at a time: s3rver's folder store trips over deletes in the same folder at once.
    for (const k of keys) await relay.delete(k);
    return ms;
  };
  let n = 0;
  const carousel = async () => {
    n += 1;
    const draft = await h.ok('POST', '/microblog/drafts', {
      title: `Carousel ${n}`,
      tweets: [{ content: `Relay carousel ${n}`, media: mediaIds.map((mediaId, i) => ({ mediaId, altText: `${i}` })) }],
    });
    const started = performance.now();
    const r = await h.ok('POST', '/microblog/publish', { draftId: draft.draft.id, accountIds: [threadblog] });
    const ms = performance.now() - started;
    if (!r.success) throw new Error(`the carousel did not publish: ${JSON.stringify(r.results)}`);
    return ms;
  };

  await carousel(); // warm-up: token, JIT, the relay's first connection
  const base: number[] = [];
  const full: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    base.push(await uploadsOnly());
    full.push(await carousel());
  }
  const left = await s3.keys();
  const ratio = stats(full).median / stats(base).median;
  printTable(
    `A ${ITEMS}-item Threads carousel through the media relay (${fmt(total / 1e6, 1)} MB, uplink ` +
      `${fmt(UPLINK / 1e6, 0)} MB/s); ${RUNS} runs, ms, median (min–max)`,
    [
      ['what', 'ms', 'vs uploads'],
      [`${ITEMS} uploads alone (baseline)`, spread(base, 0), '1×'],
      [
        'the whole publish',
        spread(full, 0),
        `${fmt(ratio)}×${goal(`carousel ${fmt(ratio)}× its uploads (goal ≤ ${GOAL}×)`, ratio <= GOAL)}`,
      ],
      ['objects left in the bucket', String(left.length), goal('no object left', left.length === 0).trim()],
    ],
  );
  console.log(`goal (issue #35): ≤ ${GOAL}× the time of its uploads; no object left in the bucket.`);
} finally {
  await h.stop();
  await Promise.all([sims.close(), s3.close()]);
  fs.rmSync(dir, { recursive: true, force: true });
}
finishGoals();
