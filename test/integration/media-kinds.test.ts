/**
 * Media of every kind (issue #35): PDF documents (pages counted from the bytes, 100 MB and 300
 * pages), titles, captions (WebVTT), video lengths read from the movie header, and each network's
 * verdict on a video or a document, over HTTP against a real server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { insertAccount, ownerId } from '../helpers/fixtures.js';
import { png, upload } from '../helpers/media-files.js';
import { pdf, timedVideo, vtt } from '../helpers/media-kinds.js';

let t: TestServer;
let key: string;
const call = (method: string, p: string, body?: unknown) => t.call(method, p, { key, body });
const rowCount = () => (t.server.sqlite.prepare('select count(*) n from media').get() as { n: number }).n;

beforeAll(async () => {
  t = await startServer({ scheduler: false });
  key = await t.login();
});
afterAll(async () => {
  await t.close();
});

async function uploadOne(data: Buffer, filename: string, title?: string) {
  const parts = [{ filename, data }, ...(title === undefined ? [] : [{ name: 'title', data: Buffer.from(title) }])];
  return upload(t.base, key, parts);
}

describe('documents (PDF)', () => {
  it('takes a PDF as a document, counts its pages, and titles it with the file name', async () => {
    const r = await uploadOne(pdf(12), 'Quarterly deck.pdf');
    expect(r.status).toBe(200);
    expect(r.body.data.uploads[0]).toMatchObject({ type: 'document', title: 'Quarterly deck.pdf' });
    const row = t.server.sqlite
      .prepare('select mime, pages, title from media where id = ?')
      .get(r.body.data.uploads[0].mediaId);
    expect(row).toEqual({ mime: 'application/pdf', pages: 12, title: 'Quarterly deck.pdf' });
  });

  it('takes the form field title when given, and counts pages inside compressed object streams', async () => {
    const r = await uploadOne(pdf(40, { objectStreams: true }), 'x.pdf', 'Ten lessons from a year of posting');
    expect(r.status).toBe(200);
    expect(r.body.data.uploads[0].title).toBe('Ten lessons from a year of posting');
    const id = r.body.data.uploads[0].mediaId;
    expect(t.server.sqlite.prepare('select pages from media where id = ?').get(id)).toEqual({ pages: 40 });
  });

  it('refuses a PDF over 300 pages (plain or compressed) with 400 naming the limit, keeping nothing', async () => {
    const before = rowCount();
    for (const data of [pdf(301), pdf(301, { objectStreams: true })]) {
      const r = await uploadOne(data, 'big.pdf');
      expect(r.status).toBe(400);
      expect(r.body.error).toBe('INVALID_INPUT');
      expect(r.body.message).toMatch(/300 pages/);
    }
    expect(rowCount()).toBe(before);
    expect((await uploadOne(pdf(300), 'ok.pdf')).status).toBe(200);
  });

  it('refuses a broken PDF (truncated, no pages) with 400, and a text file named .pdf as today (415)', async () => {
    const truncated = await uploadOne(pdf(5, { eof: false }), 'cut.pdf');
    expect(truncated.status).toBe(400);
    expect(truncated.body.message).toMatch(/Not a valid PDF.*300 pages.*%%EOF/);
    const empty = await uploadOne(Buffer.from('%PDF-1.4\n1 0 obj\n<< >>\nendobj\n%%EOF\n', 'latin1'), 'e.pdf');
    expect(empty.status).toBe(400);
    expect(empty.body.message).toMatch(/no pages/);
    const text = await uploadOne(Buffer.from('Just some notes, not a PDF at all\n'.repeat(20)), 'notes.pdf');
    expect(text.status).toBe(415);
  });
});

describe('title, alt text and captions', () => {
  let videoId: string;
  beforeAll(async () => {
    const r = await uploadOne(timedVideo(42_500), 'launch.mp4');
    videoId = r.body.data.uploads[0].mediaId;
  });

  it('reads the video length from the movie header', async () => {
    const r = await call('PUT', `/microblog/media/${videoId}`, {});
    expect(r.status).toBe(200);
    expect(r.body.media).toMatchObject({ type: 'video', durationMs: 42_500, width: 1280, height: 720, pages: null });
  });

  it('PUT /microblog/media/:id sets the title and the alt text', async () => {
    const r = await call('PUT', `/microblog/media/${videoId}`, { title: 'Launch day', altText: 'A rocket lifts off' });
    expect(r.status).toBe(200);
    expect(r.body.media).toMatchObject({ title: 'Launch day', altText: 'A rocket lifts off' });
    const only = await call('PUT', `/microblog/media/${videoId}`, { altText: 'A rocket' });
    expect(only.body.media).toMatchObject({ title: 'Launch day', altText: 'A rocket' });
    expect((await call('PUT', '/microblog/media/AAAAAAAAAAAAAAAAAAAAAA', { title: 'x' })).status).toBe(404);
  });

  it('sets WebVTT captions per language', async () => {
    const captions = [
      { lang: 'en', vtt: vtt(3) },
      { lang: 'pt-BR', vtt: vtt(2, 'Olá') },
    ];
    const r = await call('PUT', `/microblog/media/${videoId}/captions`, { captions });
    expect(r.status).toBe(200);
    expect(r.body.media.captions).toEqual(captions);
  });

  it('refuses captions that are not WebVTT, over 20,000 bytes, without a language tag, or more than 20', async () => {
    const bad = async (captions: unknown[], path: RegExp | string, why: RegExp) => {
      const r = await call('PUT', `/microblog/media/${videoId}/captions`, { captions });
      expect(r.status).toBe(400);
      expect(r.body.error).toBe('INVALID_INPUT');
      expect(JSON.stringify(r.body)).toMatch(why);
      if (typeof path === 'string') expect(r.body.details.map((d: any) => d.path)).toContain(path);
    };
    await bad([{ lang: 'en', vtt: '1\n00:00:01,000 --> 00:00:02,000\nSRT, not WebVTT\n' }], 'captions.0.vtt', /WEBVTT/);
    await bad(
      [{ lang: 'en', vtt: 'WEBVTT\n\n00:00:01,000 --> 00:00:02,000\nA comma\n' }],
      'captions.0.vtt',
      /cue timing/,
    );
    await bad([{ lang: 'en', vtt: vtt(1) + 'x'.repeat(20_000) }], 'captions.0.vtt', /over the limit of 20000/);
    await bad([{ lang: 'english!', vtt: vtt(1) }], 'captions.0.lang', /BCP 47/);
    await bad(
      Array.from({ length: 21 }, () => ({ lang: 'en', vtt: vtt(1) })),
      /captions/,
      /20/,
    );
    // Nothing was changed by the refusals.
    const r = await call('PUT', `/microblog/media/${videoId}`, {});
    expect(r.body.media.captions.map((c: any) => c.lang)).toEqual(['en', 'pt-BR']);
  });
});

describe("each network's verdict on videos and documents", () => {
  let accountIds: Record<string, string>;
  beforeAll(async () => {
    const uid = ownerId(t);
    accountIds = Object.fromEntries(
      ['microblog', 'skyblog', 'fedblog', 'threadblog', 'problog'].map((p) => [p, insertAccount(t, uid, p)]),
    );
    // Threads takes uploaded files only through a media relay: one is set up (never reached here) so
    // that Threads' verdicts below are about the video itself.
    const relay = await call('PUT', '/media-relay', {
      kind: 's3',
      endpoint: 'http://127.0.0.1:9',
      region: 'us-east-1',
      bucket: 'herald-test',
      prefix: '',
      accessKeyId: 'AKIDTEST',
      secretAccessKey: 'secret',
    });
    expect(relay.status, relay.text).toBe(200);
  });

  async function verdicts(media: string[]) {
    const d = await call('POST', '/microblog/drafts', {
      title: 'Media verdicts',
      tweets: [{ content: 'Look at this', media: media.map((mediaId) => ({ mediaId })) }],
      selectedAccountIds: Object.values(accountIds),
    });
    expect(d.status, d.text).toBe(200);
    const r = await call('GET', `/microblog/drafts/${d.body.draft.id}/networks`);
    expect(r.status).toBe(200);
    return Object.fromEntries(r.body.networks.map((n: any) => [n.platform, n.posts[0]]));
  }
  const idOf = async (data: Buffer, name: string) => (await uploadOne(data, name)).body.data.uploads[0].mediaId;

  it('a document is LinkedIn only, and alone in its post', async () => {
    const doc = await idOf(pdf(3), 'deck.pdf');
    const alone = await verdicts([doc]);
    expect(alone.problog).toMatchObject({ valid: true });
    for (const p of ['microblog', 'skyblog', 'fedblog', 'threadblog'])
      expect(alone[p]).toMatchObject({ valid: false, reason: expect.stringMatching(/LinkedIn only/) });
    const mixed = await verdicts([doc, await idOf(png(10, 10), 'a.png')]);
    expect(mixed.problog).toMatchObject({ valid: false, reason: expect.stringMatching(/alone in its post/) });
  });

  it("a 150 s video is over X's 140 s but fits Threads and LinkedIn; 2 s is under LinkedIn's 3 s", async () => {
    const long = await verdicts([await idOf(timedVideo(150_000), 'long.mp4')]);
    expect(long.microblog).toMatchObject({ valid: false, reason: expect.stringMatching(/2.5 min|150 s.*140 s/) });
    expect(long.threadblog.valid).toBe(true);
    expect(long.problog.valid).toBe(true);
    const short = await verdicts([await idOf(timedVideo(2_000), 'short.mp4')]);
    expect(short.problog).toMatchObject({ valid: false, reason: expect.stringMatching(/at least 3 s/) });
    expect(short.microblog.valid).toBe(true);
  });

  it("a 4 min video fits Threads' 5 min but not Bluesky's 3 min", async () => {
    const v = await verdicts([await idOf(timedVideo(240_000), 'four.mp4')]);
    expect(v.threadblog.valid).toBe(true);
    expect(v.skyblog.valid).toBe(false);
    expect(v.microblog).toMatchObject({ valid: false, reason: expect.stringMatching(/140 s/) });
  });
});
