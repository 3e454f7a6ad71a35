/**
 * Issue #19 item 6: a kill during an upload leaves a file in the media folder that no media row
 * names (the file is written whole, then its row inserted). The next start removes such files,
 * and never a file a row names, nor one another live Herald on the same folder may be writing.
 * Real child servers, a real multipart upload over HTTP, a real SIGKILL.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { startChild, type ChildServer } from '../helpers/child-server.js';
import { endlessHeader, png, upload } from '../helpers/media-files.js';
import { tempDir } from '../helpers/server.js';
import { readDb, until } from './harness.js';

const children: ChildServer[] = [];
const dirs: string[] = [];

afterAll(async () => {
  await Promise.all(children.map((c) => c.kill()));
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

async function child(dataDir: string): Promise<ChildServer> {
  const c = await startChild({ dataDir });
  children.push(c);
  return c;
}

const mediaFiles = (dataDir: string) => {
  try {
    return fs.readdirSync(path.join(dataDir, 'media')).sort();
  } catch {
    return [];
  }
};
const rowFiles = (dataDir: string) =>
  readDb(dataDir, (db) =>
    (db.prepare('SELECT file_name AS f FROM media').all() as { f: string }[]).map((r) => r.f).sort(),
  );

/** Starts a multipart upload whose file part never ends; answers the stream to write more into. */
function endlessUpload(base: string, key: string): PassThrough {
  const body = new PassThrough();
  const boundary = '----heraldorphan';
  const req = http.request(`${base}/microblog/media/upload`, {
    method: 'POST',
    agent: false,
    headers: {
      'svc-key': key,
      'content-type': `multipart/form-data; boundary=${boundary}`,
      'transfer-encoding': 'chunked',
    },
  });
  req.on('error', () => {}); // the server is killed mid-request
  body.pipe(req);
  body.write(
    `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="big.png"\r\nContent-Type: ` +
      `image/png\r\n\r\n`,
  );
  body.write(endlessHeader('png').header);
  return body;
}

describe('media files a killed upload left behind', () => {
  it('are removed at the next start; uploaded media (with their rows) stay and are served', async () => {
    const dataDir = tempDir('herald-orphans-');
    dirs.push(dataDir);
    const first = await child(dataDir);
    const key = await first.login();
    const kept = await upload(first.apiUrl, key, [{ filename: 'kept.png', type: 'image/png', data: png(64, 64) }]);
    expect(kept.status).toBe(200);
    const keptId = kept.body.data.uploads[0].mediaId as string;
    expect(rowFiles(dataDir)).toHaveLength(1);

    const body = endlessUpload(first.apiUrl, key);
    const zeros = Buffer.alloc(64 * 1024);
    for (let i = 0; i < 8; i++) body.write(zeros);
    // The partial file is on disk, growing; its row is not (it would be inserted once the file ended).
    const partial = await until(
      'the upload to reach the media folder',
      () => {
        const extra = mediaFiles(dataDir).filter((f) => !rowFiles(dataDir).includes(f));
        return extra.length === 1 && fs.statSync(path.join(dataDir, 'media', extra[0])).size > 0 ? extra[0] : undefined;
      },
      20_000,
      50,
    );
    expect((await first.kill('SIGKILL')).signal).toBe('SIGKILL');
    body.destroy();
    expect(mediaFiles(dataDir)).toContain(partial);
    // A zero-length one too, as a kill between creating the file and its first write leaves.
    const empty = `${'e'.repeat(22)}.png`;
    fs.writeFileSync(path.join(dataDir, 'media', empty), '');

    const second = await child(dataDir);
    expect(mediaFiles(dataDir)).toEqual(rowFiles(dataDir));
    expect(mediaFiles(dataDir)).not.toContain(partial);
    expect(mediaFiles(dataDir)).not.toContain(empty);
    const served = await second.call('GET', `/media/${keptId}`);
    expect(served.status).toBe(200);
    await second.kill('SIGTERM');
  }, 90_000);

  it(
    'while another Herald serves the same folder, a file it may ' + 'be writing stays; one untouched for hours goes',
    async () => {
      const dataDir = tempDir('herald-orphans-two-');
      dirs.push(dataDir);
      const first = await child(dataDir);
      await until(
        'the first Herald to hold the scheduler lock',
        () => fs.existsSync(path.join(dataDir, 'scheduler.lock')) || undefined,
        10_000,
        50,
      );
      const media = path.join(dataDir, 'media');
      fs.mkdirSync(media, { recursive: true });
      // What the first Herald's upload in progress looks like: a fresh file with no row yet.
      const writing = `${'w'.repeat(22)}.png`;
      fs.writeFileSync(path.join(media, writing), endlessHeader('png').header);
      const stale = `${'s'.repeat(22)}.png`;
      fs.writeFileSync(path.join(media, stale), Buffer.alloc(0));
      const hoursAgo = new Date(Date.now() - 3 * 3600_000);
      fs.utimesSync(path.join(media, stale), hoursAgo, hoursAgo);

      const second = await child(dataDir);
      expect(first.alive()).toBe(true);
      expect(mediaFiles(dataDir)).toContain(writing);
      expect(mediaFiles(dataDir)).not.toContain(stale);
      await second.kill('SIGTERM');
      await first.kill('SIGTERM');
    },
    90_000,
  );
});
