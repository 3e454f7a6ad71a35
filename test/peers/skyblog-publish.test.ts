/**
 * Publishing to a real Bluesky PDS (@atproto/pds with a local PLC, offline): an account connected
 * with an app password, then Herald's own services publish through the adapter (withCredentials →
 * publishPost / publishThread) and every post is read back from the PDS itself with
 * com.atproto.repo.getRecord / listRecords: threads, replies, images, quotes and facets; then
 * reconciliation (findRecentPost) and how failures are classed.
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallContext, MediaItem, PostRef } from '../../server/platforms/adapter.js';
import { PlatformError } from '../../server/platforms/errors.js';
import { SKYBLOG_IMAGE_MAX_BYTES } from '../../server/platforms/skyblog/images.js';
import { publishThread } from '../../server/platforms/thread.js';
import { tempDir } from '../helpers/server.js';
import { makePng } from './png.js';
import { adapter, alice, bob, connect, pds, post, publish, rowOf, t, useSkyblogWorld } from './skyblog-world.js';

let aliceId: string;
let mediaDir: string;

useSkyblogWorld();

beforeAll(async () => {
  const r = await connect(alice);
  expect(r.status, r.text).toBe(200);
  aliceId = r.body.account.uuid;
  mediaDir = tempDir('herald-sky-media-');
});

afterAll(() => {
  if (mediaDir) fs.rmSync(mediaDir, { recursive: true, force: true });
});

describe('publishing through the adapter, read back from the PDS', () => {
  it('publishes a single post with its language', async () => {
    const ref = await publish(aliceId, post('Hello from Herald', { options: { langs: ['en'] } }));
    expect(ref.id).toMatch(new RegExp(`^at://${alice.did}/app\\.bsky\\.feed\\.post/[a-z0-9]+$`));
    const rkey = ref.id.split('/').pop();
    expect(ref.url).toBe(`https://bsky.app/profile/alice.test/post/${rkey}`);
    const rec = await pds.getRecord(ref.id);
    expect(rec.cid).toBe(ref.cid);
    expect(rec.value).toMatchObject({ $type: 'app.bsky.feed.post', text: 'Hello from Herald', langs: ['en'] });
    expect(rec.value.reply).toBeUndefined();
    expect(Math.abs(Date.parse(rec.value.createdAt) - Date.now())).toBeLessThan(60_000);
  });

  it('publishes a 3-post thread as a reply chain: root = first, parent = previous (uri + cid)', async () => {
    const sent: number[] = [];
    const refs = await t.server.services.credentials.withCredentials(rowOf(aliceId), (ctx) =>
      publishThread(
        adapter(),
        ctx,
        ['Thread 1/3', 'Thread 2/3', 'Thread 3/3'].map((text) => ({
          text,
          media: [],
          options: {},
          idempotencyKey: text,
        })),
        [],
        {
          beforeSend: () => undefined,
          afterSend: (i) => {
            sent.push(i);
          },
        },
      ),
    );
    expect(refs).toHaveLength(3);
    expect(sent).toEqual([0, 1, 2]);
    const recs = await Promise.all(refs.map((r) => pds.getRecord(r.id)));
    expect(recs.map((r) => r.value.text)).toEqual(['Thread 1/3', 'Thread 2/3', 'Thread 3/3']);
    recs.forEach((r, i) => expect(r.cid).toBe(refs[i].cid));
    const strong = (r: PostRef) => ({ uri: r.id, cid: r.cid });
    expect(recs[0].value.reply).toBeUndefined();
    expect(recs[1].value.reply).toEqual({ root: strong(refs[0]), parent: strong(refs[0]) });
    expect(recs[2].value.reply).toEqual({ root: strong(refs[0]), parent: strong(refs[1]) });
  });

  it("answers someone else's reply with the thread's own root when only the parent is given", async () => {
    const root = await publish(aliceId, post('Root for a foreign reply'));
    const child = await publish(aliceId, post('Child', { replyTo: root, root }));
    const answer = await publish(aliceId, post('Answer', { replyTo: { id: child.id, url: child.url } }));
    const rec = await pds.getRecord(answer.id);
    expect(rec.value.reply).toEqual({
      root: { uri: root.id, cid: root.cid },
      parent: { uri: child.id, cid: child.cid },
    });
  });

  it('publishes two images with alt text and aspect ratios, the blobs byte for byte', async () => {
    const wide = makePng(64, 32, { rgb: [10, 120, 200] });
    const tall = makePng(24, 48, { rgb: [250, 200, 0] });
    const files = [path.join(mediaDir, 'wide.png'), path.join(mediaDir, 'tall.png')];
    fs.writeFileSync(files[0], wide);
    fs.writeFileSync(files[1], tall);
    const media: MediaItem[] = [
      {
        path: files[0],
        mime: 'image/png',
        size: wide.length,
        kind: 'image',
        width: 64,
        height: 32,
        altText: 'A blue banner',
      },
      // No dimensions recorded: the adapter reads them from the PNG header.
      { path: files[1], mime: 'image/png', size: tall.length, kind: 'image', altText: 'A yellow column' },
    ];
    const ref = await publish(aliceId, post('Two images', { media }));
    const rec = await pds.getRecord(ref.id);
    const embed = rec.value.embed;
    expect(embed.$type).toBe('app.bsky.embed.images');
    expect(embed.images).toHaveLength(2);
    expect(embed.images.map((i: { alt: string }) => i.alt)).toEqual(['A blue banner', 'A yellow column']);
    expect(embed.images.map((i: { aspectRatio: unknown }) => i.aspectRatio)).toEqual([
      { width: 64, height: 32 },
      { width: 24, height: 48 },
    ]);
    for (const [i, bytes] of [wide, tall].entries()) {
      const image = embed.images[i].image;
      expect(image).toMatchObject({ $type: 'blob', mimeType: 'image/png', size: bytes.length });
      const res = await fetch(`${pds.url}/xrpc/com.atproto.sync.getBlob?did=${alice.did}&cid=${image.ref.$link}`);
      expect(res.status).toBe(200);
      expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
    }
  });

  it('re-encodes a still image over the blob cap to a JPEG under it, same shape, EXIF dropped', async () => {
    const big = makePng(600, 600, { noise: true });
    expect(big.length).toBeGreaterThan(SKYBLOG_IMAGE_MAX_BYTES);
    const file = path.join(mediaDir, 'big.png');
    fs.writeFileSync(file, big);
    const ref = await publish(
      aliceId,
      post('Made smaller', {
        media: [
          { path: file, mime: 'image/png', size: big.length, kind: 'image', width: 600, height: 600, altText: 'noise' },
        ],
      }),
    );
    const [img] = (await pds.getRecord(ref.id)).value.embed.images;
    expect(img.alt).toBe('noise');
    expect(img.image.mimeType).toBe('image/jpeg');
    expect(img.image.size).toBeLessThanOrEqual(SKYBLOG_IMAGE_MAX_BYTES);
    expect(img.aspectRatio.width).toBe(img.aspectRatio.height);
  });

  it('refuses an animated GIF over the blob cap before uploading, saying the limit', async () => {
    const gif = Buffer.alloc(SKYBLOG_IMAGE_MAX_BYTES + 10, 0);
    Buffer.from('GIF89a', 'latin1').copy(gif);
    const file = path.join(mediaDir, 'big.gif');
    fs.writeFileSync(file, gif);
    const before = (await pds.listPosts(alice.did)).length;
    const err = await publish(
      aliceId,
      post('Too big', { media: [{ path: file, mime: 'image/gif', size: gif.length, kind: 'gif', altText: 'moving' }] }),
    ).catch((e) => e);
    expect(err).toBeInstanceOf(PlatformError);
    expect(err.kind).toBe('permanent');
    expect(err.message).toContain(String(SKYBLOG_IMAGE_MAX_BYTES));
    expect((await pds.listPosts(alice.did)).length).toBe(before);
  });

  it('quotes a post with a record embed, and with media as recordWithMedia', async () => {
    const quoted = await publish(aliceId, post('Quote me'));
    const q = await publish(aliceId, post('Quoting', { quote: quoted }));
    const rec = await pds.getRecord(q.id);
    expect(rec.value.embed).toEqual({ $type: 'app.bsky.embed.record', record: { uri: quoted.id, cid: quoted.cid } });

    const png = makePng(10, 10);
    const file = path.join(mediaDir, 'q.png');
    fs.writeFileSync(file, png);
    const both = await publish(
      aliceId,
      post('Quote with picture', {
        quote: quoted,
        media: [{ path: file, mime: 'image/png', size: png.length, kind: 'image', altText: 'red dot' }],
      }),
    );
    const rec2 = await pds.getRecord(both.id);
    expect(rec2.value.embed.$type).toBe('app.bsky.embed.recordWithMedia');
    expect(rec2.value.embed.record).toEqual({
      $type: 'app.bsky.embed.record',
      record: { uri: quoted.id, cid: quoted.cid },
    });
    expect(rec2.value.embed.media.$type).toBe('app.bsky.embed.images');
    expect(rec2.value.embed.media.images[0]).toMatchObject({ alt: 'red dot', aspectRatio: { width: 10, height: 10 } });
  });

  it('writes facets whose UTF-8 byte ranges cover exactly the link, the mention and the hashtag', async () => {
    const link = 'https://example.com/docs?q=日本';
    const ask = `ask @${bob.handle} or @nobody-here.test`;
    const text = `Hi 👋🏽 世界！ read ${link}, ${ask} about #東京テスト 🎉 end.`;
    const ref = await publish(aliceId, post(text));
    const rec = await pds.getRecord(ref.id);
    expect(rec.value.text).toBe(text);
    const bytes = Buffer.from(text, 'utf8');
    const spans = (rec.value.facets as { index: { byteStart: number; byteEnd: number }; features: any[] }[]).map(
      (f) => ({ slice: bytes.subarray(f.index.byteStart, f.index.byteEnd).toString('utf8'), feature: f.features[0] }),
    );
    expect(spans).toEqual([
      { slice: link, feature: { $type: 'app.bsky.richtext.facet#link', uri: link } },
      { slice: `@${bob.handle}`, feature: { $type: 'app.bsky.richtext.facet#mention', did: bob.did } },
      // @nobody-here.test does not resolve on the PDS: no facet.
      { slice: '#東京テスト', feature: { $type: 'app.bsky.richtext.facet#tag', tag: '東京テスト' } },
    ]);
  });
});

describe('reconciliation and failures', () => {
  it('findRecentPost finds a post it made, and only that one', async () => {
    const since = Date.now();
    const root = await publish(aliceId, post('Did this go out?'));
    const reply = await publish(aliceId, post('Did this go out?', { replyTo: root, root }));
    const find = (q: { text: string; replyTo?: PostRef; since: number }) =>
      t.server.services.credentials.withCredentials(rowOf(aliceId), (ctx) =>
        adapter().findRecentPost(ctx, { ...q, idempotencyKey: 'x' }),
      );
    expect(await find({ text: 'Did this go out?', since })).toEqual(root);
    expect(await find({ text: 'Did this go out?', replyTo: root, since })).toEqual(reply);
    expect(await find({ text: 'This never went out', since })).toBeNull();
    expect(await find({ text: 'Did this go out?', since: Date.now() + 10 * 60_000 })).toBeNull();
  });

  it('a PDS that drops the connection during createRecord makes the post ambiguous; before it, transient', async () => {
    // A loopback port with nothing listening: the connection is refused.
    const closed = await new Promise<number>((resolve) => {
      const srv = net.createServer().listen(0, '127.0.0.1', () => {
        const p = (srv.address() as net.AddressInfo).port;
        srv.close(() => resolve(p));
      });
    });
    const creds = (await t.server.services.credentials.load(aliceId))!;
    const ctx: CallContext = {
      account: {
        id: aliceId,
        platform: 'skyblog',
        platformUserId: alice.did,
        username: 'alice.test',
        serverUrl: `http://127.0.0.1:${closed}`,
        meta: {},
      },
      credentials: { ...creds, extra: { ...creds.extra, service: `http://127.0.0.1:${closed}` } },
      network: t.server.config.networks.skyblog,
    };
    const write = await adapter()
      .publishPost(ctx, post('lost'))
      .catch((e) => e);
    expect(write).toBeInstanceOf(PlatformError);
    expect(write.kind).toBe('ambiguous');
    const read = await adapter()
      .findRecentPost(ctx, { text: 'lost', since: Date.now(), idempotencyKey: 'x' })
      .catch((e) => e);
    expect(read.kind).toBe('transient');
  });

  it("a record the PDS refuses is permanent, with the server's message", async () => {
    const err = await publish(
      aliceId,
      post('bad quote', { quote: { id: `at://${alice.did}/app.bsky.feed.post/nope`, url: 'x' } }),
    ).catch((e) => e);
    expect(err).toBeInstanceOf(PlatformError);
    expect(err.kind).toBe('permanent');
    expect(err.message).toMatch(/Could not locate record/i);
  });
});
