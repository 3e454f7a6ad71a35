/**
 * POST /microblog/media/upload, GET /media/:id, PATCH and DELETE /microblog/media/:id against a
 * real server with real SQLite and real files.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser, startServer, type TestServer } from '../helpers/server.js';
import { gif, jpeg, png, upload, video, webp } from '../helpers/media-files.js';

let t: TestServer;
let key: string;
const mediaDir = () => path.join(t.dataDir, 'media');
const filesInMedia = () => (fs.existsSync(mediaDir()) ? fs.readdirSync(mediaDir()) : []);

beforeAll(async () => {
  t = await startServer({ scheduler: false });
  key = await t.login();
});
afterAll(async () => {
  await t.close();
});

describe('upload', () => {
  it('stores up to 4 files under generated names and answers {code: 0, data: {uploads}}', async () => {
    const files = [png(64, 48), jpeg(100, 50), gif(10, 10, 3), video('mp4', 4096)];
    const r = await upload(
      t.base,
      key,
      files.map((data, i) => ({ filename: `holiday-${i}.bin`, type: 'text/plain', data })),
    );
    expect(r.status).toBe(200);
    expect(r.body.code).toBe(0);
    expect(r.body.success).toBe(true);
    const uploads = r.body.data.uploads;
    expect(uploads.map((u: any) => u.type)).toEqual(['image', 'image', 'gif', 'video']);
    for (const u of uploads) {
      expect(u.mediaId).toMatch(/^[A-Za-z0-9_-]{22,}$/);
      expect(u.url).toBe(`${t.server.url}/api/v1/media/${u.mediaId}`);
    }
    const names = filesInMedia();
    expect(names).toHaveLength(4);
    for (const n of names) expect(n).not.toContain('holiday');
    const rows = t.server.sqlite
      .prepare('select id, type, mime, width, height, size from media order by created_at')
      .all() as any[];
    const png0 = rows.find((x) => x.id === uploads[0].mediaId);
    expect(png0).toMatchObject({ mime: 'image/png', width: 64, height: 48, size: files[0].length });
    expect(rows.find((x) => x.id === uploads[1].mediaId)).toMatchObject({ mime: 'image/jpeg', width: 100, height: 50 });
  });

  it('decides WebP and MOV from the bytes', async () => {
    const r = await upload(t.base, key, [
      { filename: 'a.png', type: 'image/png', data: webp(30, 20, 'VP8X') },
      { filename: 'b.mp4', type: 'video/mp4', data: video('mov') },
    ]);
    expect(r.status).toBe(200);
    const rows = r.body.data.uploads.map((u: any) =>
      t.server.sqlite.prepare('select mime, width, height from media where id = ?').get(u.mediaId),
    );
    expect(rows).toEqual([
      { mime: 'image/webp', width: 30, height: 20 },
      { mime: 'video/quicktime', width: 1280, height: 720 },
    ]);
  });

  it('refuses a 5th file with 400 and keeps none of the first four', async () => {
    const before = filesInMedia().length;
    const r = await upload(
      t.base,
      key,
      Array.from({ length: 5 }, (_, i) => ({ filename: `${i}.png`, data: png(8, 8) })),
    );
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ success: false, error: 'INVALID_INPUT' });
    expect(filesInMedia().length).toBe(before);
  });

  it('is all or nothing: a bad third file removes the first two', async () => {
    const before = filesInMedia().length;
    const rowsBefore = (t.server.sqlite.prepare('select count(*) n from media').get() as any).n;
    const r = await upload(t.base, key, [
      { filename: 'a', data: png(8, 8) },
      { filename: 'b', data: png(8, 8) },
      { filename: 'c', data: Buffer.from('<html><script>alert(1)</script></html>') },
      { filename: 'd', data: png(8, 8) },
    ]);
    expect(r.status).toBe(415);
    expect(r.body.error).toBe('INVALID_INPUT');
    expect(filesInMedia().length).toBe(before);
    expect((t.server.sqlite.prepare('select count(*) n from media').get() as any).n).toBe(rowsBefore);
  });

  it('needs a key, multipart, and the part name `files`', async () => {
    expect((await upload(t.base, 'wrong', [{ filename: 'a', data: png(8, 8) }])).status).toBe(401);
    const json = await t.call('POST', '/microblog/media/upload', { key, body: {} });
    expect(json.status).toBe(415);
    const other = await upload(t.base, key, [{ name: 'file', filename: 'a', data: png(8, 8) }]);
    expect(other.status).toBe(400);
  });
});

describe('serve, alt text, delete', () => {
  let id: string;
  const bytes = png(20, 10, 500);

  beforeAll(async () => {
    const r = await upload(t.base, key, [{ filename: 'x.html', type: 'text/html', data: bytes }]);
    id = r.body.data.uploads[0].mediaId;
  });

  it(
    'serves the exact bytes with the sniffed type, nosniff, ' + 'inline and a CSP allowing nothing, without a key',
    async () => {
      const res = await fetch(`${t.base}/media/${id}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/png');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('content-disposition')).toMatch(/^inline; filename="[A-Za-z0-9_-]+\.png"$/);
      expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
      expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
    },
  );

  it('answers 404 for an unknown id', async () => {
    expect((await fetch(`${t.base}/media/AAAAAAAAAAAAAAAAAAAAAA`)).status).toBe(404);
  });

  it('sets alt text (max 5,000), owner only', async () => {
    const r = await t.call('PATCH', `/microblog/media/${id}`, { key, body: { altText: 'A red square' } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      success: true,
      media: {
        mediaId: id,
        url: `${t.server.url}/api/v1/media/${id}`,
        type: 'image',
        altText: 'A red square',
        width: 20,
        height: 10,
        size: bytes.length,
        title: 'x.html',
        captions: [],
        durationMs: null,
        pages: null,
      },
    });
    expect((await t.call('PATCH', `/microblog/media/${id}`, { key, body: { altText: 'x'.repeat(5001) } })).status).toBe(
      400,
    );
    const other = await addUser(t, 'other@example.test');
    const foreign = await t.call('PATCH', `/microblog/media/${id}`, { key: other, body: { altText: 'mine now' } });
    expect(foreign.status).toBe(404);
    expect((await t.call('DELETE', `/microblog/media/${id}`, { key: other })).status).toBe(404);
    const row = t.server.sqlite.prepare('select alt_text from media where id = ?').get(id) as any;
    expect(row.alt_text).toBe('A red square');
  });

  it('deletes the row and the file', async () => {
    const file = (t.server.sqlite.prepare('select file_name from media where id = ?').get(id) as any).file_name;
    expect(fs.existsSync(path.join(mediaDir(), file))).toBe(true);
    const r = await t.call('DELETE', `/microblog/media/${id}`, { key });
    expect(r.status).toBe(200);
    expect(fs.existsSync(path.join(mediaDir(), file))).toBe(false);
    expect((await fetch(`${t.base}/media/${id}`)).status).toBe(404);
  });
});
