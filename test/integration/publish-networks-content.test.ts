/**
 * What the single-network endpoints and the engine hand the five networks (split from
 * publish-networks-endpoints.test.ts): imageUrls are fetched through Herald's guard and arrive as
 * their bytes; typed text arrives character for character on every network; History names the
 * posts that have no draft title.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { GuardedFetcher } from '../../server/net/guarded-fetch.js';
import { plainToHtml } from '../../text/html.js';
import { pngBytes } from '../helpers/png.js';
import { PLATFORMS, postsOn } from '../helpers/networks.js';
import { nets, t, key, ids, userId, texts, createDraft, balance, publish } from '../helpers/publish-networks.js';
import { noDuplicates, usePublishNetworks } from '../helpers/publish-networks.js';

// Real servers on a shared 2-core machine: generous per-test time, no wall-clock asserts.
vi.setConfig({ testTimeout: 90_000 });

usePublishNetworks();

describe('imageUrls on the single-network endpoints', () => {
  const photo = pngBytes(30, 20, [10, 200, 10]);
  let cdn: http.Server;
  let cdnRequests = 0;
  let url = '';
  const mediaRows = () => (t.server.sqlite.prepare('SELECT COUNT(*) AS n FROM media').get() as { n: number }).n;

  beforeAll(async () => {
    cdn = http.createServer((req, res) => {
      cdnRequests += 1;
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(photo);
    });
    const port = await new Promise<number>((r) =>
      cdn.listen(0, '127.0.0.1', () => r((cdn.address() as AddressInfo).port)),
    );
    // The guarded fetcher with a test resolver: cdn.test is the one origin it may reach here.
    t.server.services.media.fetcher = new GuardedFetcher({
      resolve: async (host) =>
        host === 'cdn.test' ? [{ address: '127.0.0.1', family: 4 }] : Promise.reject(new Error('ENOTFOUND')),
      allow: new Set([`127.0.0.1:${port}`]),
    });
    url = `http://cdn.test:${port}/green.png`;
  });
  afterAll(async () => {
    cdn.closeAllConnections();
    await new Promise((r) => cdn.close(r));
  });

  it('a refused request fetches nothing: text too long, or credits short', async () => {
    const rows = mediaRows();
    const long = await t.call('POST', '/skyblog/publish', {
      key,
      body: { accountUuid: ids.skyblog, type: 'single', text: 'x'.repeat(301), imageUrls: [url] },
    });
    expect(long.status, long.text).toBe(400);
    const start = await balance();
    t.server.services.credits.adjust(userId, 5 - start, 'test: leave 5 credits');
    try {
      const poor = await t.call('POST', '/fedblog/publish', {
        key,
        body: { accountUuid: ids.fedblog, type: 'single', text: 'Poor', imageUrls: [url] },
      });
      expect(poor.status, poor.text).toBe(402);
    } finally {
      t.server.services.credits.adjust(userId, start - (await balance()), 'test: restore');
    }
    expect(cdnRequests).toBe(0);
    expect(mediaRows()).toBe(rows);
  });

  it('Herald fetches the image through its guard and the networks receive its bytes', async () => {
    const [skyText, mastoText] = texts('By URL', 2);
    const sky = await t.call('POST', '/skyblog/publish', {
      key,
      body: { accountUuid: ids.skyblog, type: 'single', text: skyText, imageUrls: [url] },
    });
    expect(sky.status, sky.text).toBe(200);
    const record = await nets.pds!.getRecord(String(sky.body.data.uri));
    const blob = record.value.embed.images[0].image;
    const res = await fetch(
      `${nets.pds!.url}/xrpc/com.atproto.sync.getBlob?did=${nets.sky!.did}&cid=${blob.ref.$link}`,
    );
    expect(Buffer.from(await res.arrayBuffer()).equals(photo)).toBe(true);
    const masto = await t.call('POST', '/fedblog/publish', {
      key,
      body: { accountUuid: ids.fedblog, type: 'single', text: mastoText, imageUrls: [url] },
    });
    expect(masto.status, masto.text).toBe(200);
    const status = nets.masto.state.statuses.find((x) => x.id === masto.body.data.id)!;
    expect(nets.masto.state.media.get(status.mediaIds[0])!.bytes.equals(photo)).toBe(true);
    expect(cdnRequests).toBe(2);
  });
});

describe('typed text reaches every network character for character (issue #19 item 7)', () => {
  it(
    'markup-like text typed as plain text (as the composer and ' + 'the CLI send it) arrives as typed on all five',
    async () => {
      const typed = `Use <b>bold</b> or <details> when 2 < 3 & "quotes" 'too'`;
      const posts = [typed, `${texts('Typed', 1)[0]}: <i>x</i> &amp; &lt;3 > 2`];
      const draftId = await createDraft(posts.map(plainToHtml));
      const draft = (await t.call('GET', `/microblog/drafts/${draftId}`, { key })).body.draft;
      expect(draft.tweets.map((x: { plainText: string }) => x.plainText)).toEqual(posts);
      const r = await t.call('POST', '/microblog/publish', { key, body: { draftId } });
      expect(r.status, r.text).toBe(200);
      expect(r.body.summary).toMatchObject({ total: 5, succeeded: 5, failed: 0 });
      for (const platform of PLATFORMS) {
        const held = (await postsOn(nets, platform)).map((p) => p.text);
        for (const text of posts) expect(held, platform).toContain(text);
      }
      noDuplicates();
    },
  );
});

describe('History names the posts that have no draft title', () => {
  const history = async (q: string) => {
    const r = await t.call('GET', `/publish/history?q=${encodeURIComponent(q)}`, { key });
    expect(r.status, r.text).toBe(200);
    return r.body.publications as {
      draftId: string | null;
      draftTitle: string | null;
      draftDeleted: boolean;
      sentText: string | null;
      platform: string;
    }[];
  };

  it('a direct post shows what was sent; a deleted draft\'s posts say the draft is gone, not "direct"', async () => {
    const [direct] = texts('Sent directly', 1);
    const d = await t.call('POST', '/skyblog/publish', {
      key,
      body: { accountUuid: ids.skyblog, type: 'single', text: direct },
    });
    expect(d.status, d.text).toBe(200);
    // Searched for by what was sent: it has no title to be found by.
    expect(await history(direct)).toEqual([
      expect.objectContaining({ draftId: null, draftTitle: null, draftDeleted: false, sentText: direct }),
    ]);

    // A first part over 140 characters: the row carries its first 140.
    const [head, tail] = texts('Then deleted', 2);
    const first = `${head} ${'long '.repeat(40)}`.trim();
    const draftId = await createDraft([first, tail]);
    const r = await publish(draftId, ['fedblog']);
    expect(r.status, r.text).toBe(200);
    const before = await history(head);
    expect(before).toEqual([expect.objectContaining({ draftId, draftDeleted: false })]);
    const del = await t.call('DELETE', `/microblog/drafts/${draftId}`, { key });
    expect(del.status, del.text).toBe(200);
    const after = await history(head);
    expect(after).toEqual([
      expect.objectContaining({ draftId: null, draftTitle: null, draftDeleted: true, platform: 'fedblog' }),
    ]);
    expect(after[0].sentText).toBe(first.slice(0, 140));
  });
});
