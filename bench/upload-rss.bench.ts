/**
 * Upload memory: a 512 MB MP4 (generated as it is sent: a valid header, then zeros) is uploaded
 * to the compiled Herald server (dist/server/main.mjs, what `npm start` runs) in its own process, whose resident set
 * size is sampled from /proc every 20 ms. Prints the growth over the idle server's RSS. Goal: ≤ 64 MB (streamed to
 * disk, never held whole in memory).
 */
import fs from 'node:fs';
import path from 'node:path';
import { MEDIA_TYPES } from '../server/domain/media/media-types.js';
import { upload, videoHeader, zeroTail } from '../test/helpers/media-files.js';
import { buildServer, fmt, printTable, startChild, stop, tempDir } from './lib.js';

const MB = 1024 * 1024;
/** docs/decisions.md §20.3: a 512 MB upload grows RSS by at most 64 MB (streamed). */
const GOAL_MB = 64;

function rssBytes(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1]);
  return kb * 1024;
}

const dataDir = tempDir('herald-bench-upload-');
const owner = { email: 'bench@example.test', password: 'bench password 123' };
buildServer();
const { child, match } = await startChild(
  process.execPath,
  ['dist/server/main.mjs'],
  {
    HERALD_DATA_DIR: dataDir,
    HERALD_PORT: '0',
    HERALD_SECRET_STORE: 'file',
    HERALD_LOG_LEVEL: 'info',
    HERALD_OWNER_EMAIL: owner.email,
    HERALD_OWNER_PASSWORD: owner.password,
  },
  /listening on (http:\/\/127\.0\.0\.1:\d+)/,
);
const listenedAt = Date.now();
const base = `${match[1]}/api/v1`;
try {
  const login = await fetch(`${base}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(owner),
  });
  const key = ((await login.json()) as { apiKey: { key: string } }).apiKey.key;

  // Warm up every code path once with a small file, then let the heap settle. The server hashes a
  // dummy password a second after it listens (scrypt at OWASP's cost: 128 MB for a quarter of a
  // second, so that an unknown e-mail takes as long as a wrong password): the baseline is taken
  // once that is over, or the upload's figure would carry the hash's memory.
  const warm = await upload(base, key, [{ filename: 'w.mp4', data: zeroTail(videoHeader('mp4', MB), MB + 100) }]);
  if (warm.status !== 413 && warm.status !== 200 && warm.status !== 400)
    throw new Error(`warm-up answered ${warm.status}`);
  await new Promise((r) => setTimeout(r, Math.max(500, listenedAt + 3000 - Date.now())));

  const total = MEDIA_TYPES.mp4.maxBytes;
  const headerLen = videoHeader('mp4', 0).length;
  const header = videoHeader('mp4', total - headerLen);
  const pid = child.pid!;
  const baseline = rssBytes(pid);
  let peak = baseline;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssBytes(pid));
  }, 20);
  const started = Date.now();
  const r = await upload(base, key, [{ filename: 'big.mp4', type: 'video/mp4', data: zeroTail(header, total) }]);
  const seconds = (Date.now() - started) / 1000;
  clearInterval(sampler);
  peak = Math.max(peak, rssBytes(pid));
  if (r.status !== 200) throw new Error(`upload answered ${r.status}: ${r.text}`);
  const stored = fs
    .readdirSync(path.join(dataDir, 'media'))
    .map((f) => fs.statSync(path.join(dataDir, 'media', f)).size);
  if (!stored.includes(total)) throw new Error('the stored file does not have the uploaded size');

  const growth = (peak - baseline) / MB;
  printTable('512 MB video upload (server process RSS)', [
    ['file', 'seconds', 'MB/s', 'RSS before (MB)', 'RSS peak (MB)', 'growth (MB)', 'goal'],
    [
      `${total / MB} MB mp4`,
      fmt(seconds),
      fmt(total / MB / seconds),
      fmt(baseline / MB),
      fmt(peak / MB),
      fmt(growth),
      `≤ ${GOAL_MB} MB ${growth <= GOAL_MB ? '✓' : '✗'}`,
    ],
  ]);
  console.log(
    `Goal (docs/decisions.md §20.3): RSS growth ≤ ${GOAL_MB} MB while a 512 MB video uploads (streamed); ` +
      `${growth <= GOAL_MB ? 'met' : 'MISSED'}`,
  );
  if (growth > GOAL_MB) process.exitCode = 1;
} finally {
  await stop(child);
  fs.rmSync(dataDir, { recursive: true, force: true });
}
