/**
 * imageUrls / mediaUrls: this server's media URLs are read locally; other URLs are fetched
 * through the guard into the media store with the upload rules; Threads gets public URLs as
 * they are. The guard is given a test resolver and names the one loopback origin it may reach.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GuardedFetcher } from '../../server/net/guarded-fetch.js';
import { insertAccount } from '../helpers/fixtures.js';
import { jpeg, png, upload } from '../helpers/media-files.js';
import { OWNER, startServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
let key: string;
let userId: string;
let remote: http.Server;
let P: number;
const big = Buffer.concat([png(100, 100, 6 * 1024 * 1024)]);
const small = jpeg(32, 24, 300);

beforeAll(async () => {
  t = await startServer({ scheduler: false });
  key = await t.login();
  userId = (t.server.sqlite.prepare('select id from users where email = ?').get(OWNER.email) as { id: string }).id;
  remote = http.createServer((req, res) => {
    if (req.url === '/photo.jpg') {
      res.writeHead(200, { 'content-type': 'image/jpeg' });
      return res.end(small);
    }
    if (req.url === '/big.png') {
      res.writeHead(200, { 'content-type': 'image/png' });
      return res.end(big);
    }
    if (req.url === '/page.png') {
      res.writeHead(200, { 'content-type': 'image/png' });
      return res.end('<html><script>alert(1)</script></html>');
    }
    res.writeHead(404).end();
  });
  P = await new Promise<number>((r) => remote.listen(0, '127.0.0.1', () => r((remote.address() as AddressInfo).port)));
  t.server.services.media.fetcher = new GuardedFetcher({
    resolve: async (host) =>
      host === 'cdn.test' ? [{ address: '127.0.0.1', family: 4 }] : Promise.reject(new Error('ENOTFOUND')),
    allow: new Set([`127.0.0.1:${P}`]),
  });
});
afterAll(async () => {
  remote.closeAllConnections();
  await new Promise((r) => remote.close(r));
  await t.close();
});

const mediaDir = () => path.join(t.dataDir, 'media');
const files = () => (fs.existsSync(mediaDir()) ? fs.readdirSync(mediaDir()).length : 0);
const rows = () => (t.server.sqlite.prepare('select count(*) n from media').get() as { n: number }).n;

describe('refsFromUrls', () => {
  it("fetches remote URLs into the media store and reads this server's own URLs locally", async () => {
    const up = await upload(t.base, key, [{ filename: 'a.png', data: png(8, 8) }]);
    const local = up.body.data.uploads[0];
    const refs = await t.server.services.media.refsFromUrls(userId, 'skyblog', [
      `http://cdn.test:${P}/photo.jpg`,
      local.url,
    ]);
    expect(refs[1]).toEqual({ mediaId: local.mediaId });
    const row = t.server.sqlite.prepare('select * from media where id = ?').get(refs[0].mediaId!) as any;
    expect(row).toMatchObject({
      user_id: userId,
      type: 'image',
      mime: 'image/jpeg',
      width: 32,
      height: 24,
      size: small.length,
    });
    const served = await fetch(`${t.base}/media/${refs[0].mediaId}`);
    expect(Buffer.from(await served.arrayBuffer()).equals(small)).toBe(true);
  });

  it('applies the upload rules to fetched media, all or nothing', async () => {
    const [f, r] = [files(), rows()];
    await expect(
      t.server.services.media.refsFromUrls(userId, 'fedblog', [`http://cdn.test:${P}/big.png`]),
    ).rejects.toMatchObject({ code: 'INVALID_INPUT', status: 413 });
    await expect(
      t.server.services.media.refsFromUrls(userId, 'problog', [`http://cdn.test:${P}/page.png`]),
    ).rejects.toMatchObject({ code: 'INVALID_INPUT', status: 415 });
    await expect(
      t.server.services.media.refsFromUrls(userId, 'microblog', [
        `http://cdn.test:${P}/photo.jpg`,
        `http://127.0.0.1:${P + 1}/x.png`,
      ]),
    ).rejects.toMatchObject({ code: 'INVALID_INPUT', details: [{ path: 'mediaUrls[1]' }] });
    expect([files(), rows()]).toEqual([f, r]);
  });

  it('gives Threads public URLs as they are, and refuses local and loopback ones', async () => {
    expect(
      await t.server.services.media.refsFromUrls(userId, 'threadblog', ['https://images.example.com/a.jpg']),
    ).toEqual([{ url: 'https://images.example.com/a.jpg' }]);
    for (const bad of [
      'http://127.0.0.1/a.jpg',
      'http://[::1]/a.jpg',
      'http://localhost/a.jpg',
      'http://0x7f000001/a.jpg',
      'http://169.254.169.254/',
      'file:///etc/passwd',
      'https://u:p@images.example.com/a.jpg',
    ]) {
      await expect(t.server.services.media.refsFromUrls(userId, 'threadblog', [bad]), bad).rejects.toMatchObject({
        code: 'INVALID_INPUT',
      });
    }
    const up = await upload(t.base, key, [{ filename: 'a.png', data: png(8, 8) }]);
    await expect(
      t.server.services.media.refsFromUrls(userId, 'threadblog', [up.body.data.uploads[0].url]),
    ).rejects.toThrow(/Threads fetches media/);
  });
});

describe('through the publish endpoints', () => {
  it('answers 400 INVALID_INPUT for a blocked image URL before anything is sent', async () => {
    const accountUuid = insertAccount(t, userId, 'skyblog');
    const r = await t.call('POST', '/skyblog/publish', {
      key,
      body: { accountUuid, type: 'single', text: 'hi', imageUrls: ['http://169.254.169.254/latest/meta-data/'] },
    });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ success: false, error: 'INVALID_INPUT', details: [{ path: 'mediaUrls[0]' }] });
  });

  it("answers 400 INVALID_INPUT when this server's media is sent to Threads by URL", async () => {
    const up = await upload(t.base, key, [{ filename: 'a.png', data: png(8, 8) }]);
    const accountId = insertAccount(t, userId, 'threadblog');
    const r = await t.call('POST', '/threadblog/publish', {
      key,
      body: { accountId, text: 'hi', mediaUrls: [up.body.data.uploads[0].url] },
    });
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(/Threads/);
  });
});
