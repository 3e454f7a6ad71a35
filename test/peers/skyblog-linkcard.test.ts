/**
 * Link cards and post language on a real Bluesky PDS: a draft holding a link, published through
 * Herald's API (the draft path) and fired by the scheduler (the scheduled path), makes a record
 * with `app.bsky.embed.external` whose thumb is a blob the PDS holds (the page's image, served
 * from loopback, re-encoded under the lexicon's 1,000,000-byte cap) and `langs` from the draft,
 * else from the setting defaultLanguage. Images win over a card; linkCard false sends none; a
 * chosen link replaces the first one. The PDS validates every record it takes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts } from '../../server/db/schema.js';
import { SKYBLOG_THUMB_MAX_BYTES } from '../../server/platforms/skyblog/images.js';
import { html, startLinkPages, type LinkPages } from '../helpers/link-pages.js';
import { ManualWaker } from '../helpers/scheduler-world.js';
import { startServer, tempDir, TestClock, type TestServer } from '../helpers/server.js';
import { startPds, type PdsAccount, type PdsPeer } from './pds.js';
import { makePng } from './png.js';

let pds: PdsPeer;
let site: LinkPages;
let t: TestServer;
let key: string;
let alice: PdsAccount;
let aliceId: string;
const clock = new TestClock(Date.now());
const cover = makePng(700, 700, { noise: true });
const mediaDir = tempDir('herald-sky-card-');

const rowOf = (id: string) => t.server.db.select().from(accounts).where(eq(accounts.id, id)).get()!;

async function draft(text: string, extra: Record<string, unknown> = {}): Promise<string> {
  const r = await t.call('POST', '/microblog/drafts', {
    key,
    body: { title: text.slice(0, 40), tweets: [{ content: text }], selectedAccountIds: [aliceId], ...extra },
  });
  expect(r.status, r.text).toBe(200);
  return r.body.draft.id;
}

async function publishDraft(draftId: string) {
  const r = await t.call('POST', '/microblog/publish', { key, body: { draftId } });
  expect(r.status, r.text).toBe(200);
  expect(r.body.results[0], JSON.stringify(r.body)).toMatchObject({ success: true });
  return pds.getRecord(r.body.results[0].data.uri);
}

beforeAll(async () => {
  [pds, site] = await Promise.all([startPds(), startLinkPages()]);
  site.route('/article', (_req, res) =>
    res.writeHead(200, { 'content-type': 'text/html' }).end(
      html(`
    <title>ignored</title><meta property="og:title" content="A page worth a card">
    <meta property="og:description" content="Read all about it"><meta property="og:image" content="/cover.png">`),
    ),
  );
  site.route('/other', (_req, res) =>
    res
      .writeHead(200, { 'content-type': 'text/html' })
      .end(html('<meta property="og:title" content="The other page">')),
  );
  site.route('/cover.png', (_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(cover));
  t = await startServer({ clock, scheduler: { waker: new ManualWaker(), sweepMs: 3_600_000 } });
  key = await t.login();
  alice = await pds.createAccount('alice');
  const r = await t.call('POST', '/skyblog/auth', {
    key,
    body: { identifier: alice.handle, appPassword: alice.appPassword, service: pds.url },
  });
  expect(r.status, r.text).toBe(200);
  aliceId = r.body.account.uuid;
});

afterAll(async () => {
  await t?.close();
  await Promise.all([pds?.close(), site?.close()]);
  fs.rmSync(mediaDir, { recursive: true, force: true });
});

describe('a Bluesky post with a link (real PDS)', () => {
  it(
    "carries embed.external with the page's title, description and a blob thumb under the lexicon cap, and the " +
      "draft's langs",
    async () => {
      expect(cover.length).toBeGreaterThan(SKYBLOG_THUMB_MAX_BYTES);
      const url = `${site.url}/article`;
      const id = await draft(`Lies das: ${url} — lohnt sich`, { language: 'de' });
      // The dry run shows the card and the language without sending anything.
      await t.call('GET', `/link-preview?url=${encodeURIComponent(url)}`, { key });
      const dry = await t.call('POST', '/microblog/publish', { key, body: { draftId: id, dryRun: true } });
      expect(dry.body.plan[0].posts[0]).toMatchObject({
        linkCard: { url, title: 'A page worth a card' },
        language: 'de',
      });

      const rec = await publishDraft(id);
      expect(rec.value.langs).toEqual(['de']);
      const embed = rec.value.embed;
      expect(embed.$type).toBe('app.bsky.embed.external');
      expect(embed.external).toMatchObject({
        uri: url,
        title: 'A page worth a card',
        description: 'Read all about it',
      });
      const thumb = embed.external.thumb;
      expect(thumb).toMatchObject({ $type: 'blob', mimeType: 'image/jpeg' });
      expect(thumb.size).toBeLessThanOrEqual(SKYBLOG_THUMB_MAX_BYTES);
      const blob = await fetch(`${pds.url}/xrpc/com.atproto.sync.getBlob?did=${alice.did}&cid=${thumb.ref.$link}`);
      expect(blob.status).toBe(200);
      const bytes = Buffer.from(await blob.arrayBuffer());
      expect(bytes.length).toBe(thumb.size);
      expect(bytes.subarray(0, 2).equals(Buffer.from([0xff, 0xd8]))).toBe(true);
      // The link itself stays a facet of the text.
      expect(rec.value.facets[0].features[0]).toMatchObject({ $type: 'app.bsky.richtext.facet#link', uri: url });
    },
  );

  it('sends no card when the draft says linkCard: false, and the chosen link when it names one', async () => {
    const none = await publishDraft(await draft(`No card here ${site.url}/article`, { linkCard: false }));
    expect(none.value.embed).toBeUndefined();
    const chosen = await publishDraft(
      await draft(`First ${site.url}/article then ${site.url}/other`, { linkCard: { url: `${site.url}/other` } }),
    );
    expect(chosen.value.embed.external).toMatchObject({ uri: `${site.url}/other`, title: 'The other page' });
    expect(chosen.value.embed.external.thumb).toBeUndefined();
  });

  it('images win over a card', async () => {
    const file = path.join(mediaDir, 'pic.png');
    fs.writeFileSync(file, makePng(40, 20));
    const adapter = t.server.deps.platforms.get('skyblog');
    const ref = await t.server.services.credentials.withCredentials(rowOf(aliceId), (ctx) =>
      adapter.publishPost(ctx, {
        text: `With a picture ${site.url}/article`,
        media: [{ path: file, mime: 'image/png', size: fs.statSync(file).size, kind: 'image', altText: 'pic' }],
        linkCard: { url: `${site.url}/article`, title: 'x', description: 'y' },
        options: {},
        idempotencyKey: 'img-wins',
      }),
    );
    expect((await pds.getRecord(ref.id)).value.embed.$type).toBe('app.bsky.embed.images');
  });

  it("a scheduled post fired by the scheduler carries the card and the draft's langs", async () => {
    const id = await draft(`Scheduled read ${site.url}/article`, { language: 'fr' });
    const at = new Date(clock.now() + 5 * 60_000).toISOString();
    const s = await t.call('POST', '/microblog/schedule', {
      key,
      body: {
        draftId: id,
        scheduledFor: at,
        targetAccounts: [{ accountId: aliceId, platform: 'skyblog' }],
        applyJitter: false,
      },
    });
    expect(s.status, s.text).toBe(200);
    clock.advance(6 * 60_000);
    await t.server.scheduler!.tick();
    const posts = await pds.listPosts(alice.did);
    const rec = posts.find((p) => p.value.text.startsWith('Scheduled read'))!;
    expect(rec, 'the scheduled post is on the PDS').toBeDefined();
    expect(rec.value.langs).toEqual(['fr']);
    expect(rec.value.embed.$type).toBe('app.bsky.embed.external');
    expect(rec.value.embed.external.thumb.size).toBeLessThanOrEqual(SKYBLOG_THUMB_MAX_BYTES);
  });

  it('a draft without a language is sent with the setting defaultLanguage', async () => {
    const set = await t.call('PUT', '/settings', { key, body: { defaultLanguage: 'pt-br' } });
    expect(set.status, set.text).toBe(200);
    const rec = await publishDraft(await draft('Sem idioma escolhido'));
    expect(rec.value.langs).toEqual(['pt-BR']);
  });
});
