/**
 * GET /link-preview against a real Herald and a loopback web site: the card read from Open Graph,
 * Twitter-card and plain <title>/description tags, the relative image resolved, and every page
 * that cannot be read answered with card: null (not HTML, an error status, too slow), a huge page
 * read only up to its head within the 1 MiB cap, the answer kept (a second ask fetches nothing),
 * and the address policy: loopback refused without HERALD_ALLOW_PRIVATE_ADDRESSES, and a redirect
 * to a private address refused even from a page the guard let through.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GuardedFetcher } from '../../server/net/guarded-fetch.js';
import { PAGE_MAX_BYTES } from '../../server/domain/link-cards/link-cards.service.js';
import { html, startLinkPages, type LinkPages } from '../helpers/link-pages.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { png } from '../helpers/media-files.js';

const COVER = png(30, 20, 200);

let site: LinkPages;
let other: LinkPages;
let t: TestServer;
let key: string;
let strict: TestServer;
let strictKey: string;

const preview = (url: string, server = t, k = key) =>
  server.call('GET', `/link-preview?url=${encodeURIComponent(url)}`, { key: k });

beforeAll(async () => {
  [site, other] = await Promise.all([startLinkPages(), startLinkPages()]);
  site.route('/article', (_req, res) =>
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(
      html(`
    <title>Plain title</title>
    <meta property="og:title" content="The &amp; Article">
    <meta property="og:description" content="What it is   about">
    <meta property="og:image" content="/img/cover.png">
    <meta property="og:site_name" content="Example Site">
    <meta name="description" content="ignored: og wins">`),
    ),
  );
  site.route('/twitter', (_req, res) =>
    res.writeHead(200, { 'content-type': 'text/html' }).end(
      html(`
    <meta name="twitter:title" content="Tweet title"><meta name="twitter:description" content="Tweet text">
    <base href="https://cdn.example.com/assets/"><meta name="twitter:image" content="pic.jpg">`),
    ),
  );
  site.route('/plain', (_req, res) =>
    res
      .writeHead(200, { 'content-type': 'text/html' })
      .end(html('<title> Only a\n title </title><meta name="description" content="And a description">')),
  );
  site.route('/text', (_req, res) =>
    res.writeHead(200, { 'content-type': 'text/plain' }).end('<meta property="og:title" content="not html">'),
  );
  site.route('/gone', (_req, res) =>
    res.writeHead(404, { 'content-type': 'text/html' }).end(html('<meta property="og:title" content="404 page">')),
  );
  site.route('/slow', () => {
    /* never answers */
  });
  site.route('/huge', (_req, res) => {
    // The head first, then 20 MiB of body: only the head may be read.
    res.writeHead(200, { 'content-type': 'text/html' });
    res.write(`<html><head><meta property="og:title" content="Huge page"></head><body>`);
    const block = Buffer.alloc(64 * 1024, 'a');
    let sent = 0;
    const pump = () => {
      while (sent < 20 * 1024 * 1024) {
        sent += block.length;
        if (!res.write(block)) {
          res.once('drain', pump);
          return;
        }
      }
      res.end('</body></html>');
    };
    res.on('close', () => {
      sent = Infinity;
    });
    pump();
  });
  site.route('/deep-head', (_req, res) => {
    // A head that goes on past the cap: its tags after 1 MiB are never seen.
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(
      `<html><head><meta name="x" content="${'b'.repeat(PAGE_MAX_BYTES + 10)}"><meta property="og:title" ` +
        `content="Too deep"></head></html>`,
    );
  });
  site.route('/img/cover.png', (_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(COVER));
  site.route('/script-image', (_req, res) =>
    res
      .writeHead(200, { 'content-type': 'text/html' })
      .end(html('<meta property="og:title" content="x"><meta property="og:image" content="/img/evil.svg">')),
  );
  site.route('/img/evil.svg', (_req, res) =>
    res
      .writeHead(200, { 'content-type': 'image/svg+xml' })
      .end('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
  );
  site.route('/cached', (_req, res) =>
    res.writeHead(200, { 'content-type': 'text/html' }).end(html('<meta property="og:title" content="Once">')),
  );
  site.route('/to-private', (_req, res) => res.writeHead(302, { location: `${other.url}/article` }).end());
  site.route('/to-metadata', (_req, res) =>
    res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end(),
  );
  other.route('/article', (_req, res) =>
    res.writeHead(200, { 'content-type': 'text/html' }).end(html('<meta property="og:title" content="private">')),
  );

  t = await startServer();
  key = await t.login();
  strict = await startServer({ settings: { HERALD_ALLOW_PRIVATE_ADDRESSES: '0' } });
  strictKey = await strict.login();
});

afterAll(async () => {
  await Promise.all([t?.close(), strict?.close()]);
  await Promise.all([site?.close(), other?.close()]);
});

describe('GET /link-preview', () => {
  it(
    'reads Open Graph tags, decodes entities, folds spaces and ' + 'resolves a relative image against the page',
    async () => {
      const r = await preview(`${site.url}/article#section`);
      expect(r.status, r.text).toBe(200);
      expect(r.body).toEqual({
        success: true,
        card: {
          url: `${site.url}/article`,
          title: 'The & Article',
          description: 'What it is about',
          imageUrl: `${site.url}/img/cover.png`,
          siteName: 'Example Site',
        },
      });
    },
  );

  it(
    'falls back to Twitter-card tags (image resolved against ' + '<base href>), then to <title> and the description',
    async () => {
      const tw = await preview(`${site.url}/twitter`);
      expect(tw.body.card).toMatchObject({
        title: 'Tweet title',
        description: 'Tweet text',
        imageUrl: 'https://cdn.example.com/assets/pic.jpg',
        siteName: null,
      });
      const plain = await preview(`${site.url}/plain`);
      expect(plain.body.card).toEqual({
        url: `${site.url}/plain`,
        title: 'Only a title',
        description: 'And a description',
        imageUrl: null,
        siteName: null,
      });
    },
  );

  it('answers card: null for a page that is not HTML or answers an error', async () => {
    for (const path of ['/text', '/gone', '/nothing-here']) {
      const r = await preview(`${site.url}${path}`);
      expect(r.status, `${path}: ${r.text}`).toBe(200);
      expect(r.body).toEqual({ success: true, card: null });
    }
  });

  it('reads only the head of a huge page, and nothing past 1 MiB', async () => {
    const r = await preview(`${site.url}/huge`);
    expect(r.body.card).toMatchObject({ title: 'Huge page' });
    // The server could not write the whole 20 MiB: Herald stopped reading after the head.
    await new Promise((res) => setTimeout(res, 200));
    expect(site.written.get('/huge')!).toBeLessThan(8 * 1024 * 1024);
    const deep = await preview(`${site.url}/deep-head`);
    expect(deep.body).toEqual({ success: true, card: null });
  });

  it('gives up on a page that does not answer in time: card null, within the time cap', async () => {
    const cards = t.server.services.linkCards;
    const before = cards.fetcher;
    cards.fetcher = new GuardedFetcher({ allowPrivate: true, timeoutMs: 400 });
    try {
      const started = Date.now();
      const r = await preview(`${site.url}/slow`);
      expect(r.status, r.text).toBe(200);
      expect(r.body.card).toBeNull();
      expect(Date.now() - started).toBeLessThan(3_000);
    } finally {
      cards.fetcher = before;
    }
  });

  it('keeps the answer: asking twice fetches the page once', async () => {
    const first = await preview(`${site.url}/cached`);
    const second = await preview(`${site.url}/cached`);
    expect(second.body).toEqual(first.body);
    expect(first.body.card.title).toBe('Once');
    expect(site.hits.get('/cached')).toBe(1);
  });

  it('refuses a loopback page without HERALD_ALLOW_PRIVATE_ADDRESSES: 400 INVALID_INPUT, nothing fetched', async () => {
    const before = site.hits.get('/plain') ?? 0;
    const r = await preview(`${site.url}/plain`, strict, strictKey);
    expect(r.status, r.text).toBe(400);
    expect(r.body.error).toBe('INVALID_INPUT');
    expect(r.body.message).toMatch(/public http\(s\) addresses/);
    expect(site.hits.get('/plain') ?? 0).toBe(before);
    for (const url of [
      'http://169.254.169.254/latest/meta-data/',
      'http://[::1]/',
      'http://0x7f000001/',
      'file:///etc/passwd',
    ]) {
      const bad = await preview(url, strict, strictKey);
      expect(bad.status, url).toBe(400);
    }
  });

  it('refuses a redirect to a private address, even from a page the guard let through', async () => {
    const cards = strict.server.services.linkCards;
    const before = cards.fetcher;
    // Only this one loopback server is exempt (an exact address:port), as a public site would be.
    cards.fetcher = new GuardedFetcher({ allow: new Set([`127.0.0.1:${site.port}`]), timeoutMs: 2_000 });
    try {
      const ok = await preview(`${site.url}/plain`, strict, strictKey);
      expect(ok.body.card.title).toBe('Only a title');
      for (const path of ['/to-private', '/to-metadata']) {
        const r = await preview(`${site.url}${path}`, strict, strictKey);
        expect(r.status, `${path}: ${r.text}`).toBe(400);
        expect(r.body.error).toBe('INVALID_INPUT');
      }
      expect(other.hits.get('/article') ?? 0).toBe(0);
    } finally {
      cards.fetcher = before;
    }
  });

  it("serves the image of a page's card (only that, sniffed), and 404 when there is none to read", async () => {
    const r = await fetch(`${t.base}/link-preview/image?url=${encodeURIComponent(`${site.url}/article`)}`, {
      headers: { 'svc-key': key },
    });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('image/png');
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await r.arrayBuffer()).equals(COVER)).toBe(true);
    // A second look is answered from the kept thumbnail.
    await fetch(`${t.base}/link-preview/image?url=${encodeURIComponent(`${site.url}/article`)}`, {
      headers: { 'svc-key': key },
    });
    expect(site.hits.get('/img/cover.png')).toBe(1);
    for (const page of ['/plain', '/script-image', '/text']) {
      const none = await t.call('GET', `/link-preview/image?url=${encodeURIComponent(`${site.url}${page}`)}`, { key });
      expect(none.status, page).toBe(404);
    }
    expect((await t.call('GET', `/link-preview/image?url=${encodeURIComponent(`${site.url}/article`)}`)).status).toBe(
      401,
    );
  });

  it('refuses what is not an http(s) URL with 400', async () => {
    expect((await preview('not a url')).status).toBe(400);
    expect((await t.call('GET', '/link-preview', { key })).status).toBe(400);
  });
});
