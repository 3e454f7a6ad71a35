/**
 * Alt text done right (docs/decisions.md §11), over HTTP against the X and Mastodon simulators:
 * a draft holds up to 5,000 characters of alt text; each network's limit is counted its way (X
 * 1,000 characters, Bluesky 2,000 graphemes, Mastodon the instance's description_limit); over it
 * the post is invalid for that network, its verdict naming the image and both numbers, and
 * nothing is sent; at the limit the whole text arrives, never cut. The setting requireAltText
 * refuses publishing, scheduling and queueing a post whose image has no alt text, naming
 * tweets.N.media.M.altText.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { insertAccount, ownerId } from '../helpers/fixtures.js';
import { upload } from '../helpers/media-files.js';
import { startNetworks, type Networks } from '../helpers/networks.js';
import { connectOAuth } from '../helpers/oauth-connect.js';
import { pngBytes } from '../helpers/png.js';
import { startServer, type TestServer } from '../helpers/server.js';

vi.setConfig({ testTimeout: 60_000 });

let nets: Networks;
let t: TestServer;
let key: string;
const ids: Record<'x' | 'masto' | 'sky', string> = { x: '', masto: '', sky: '' };
let image = '';

const draft = async (altText: string | undefined, text = 'A picture') => {
  const media = [{ mediaId: image, ...(altText === undefined ? {} : { altText }) }];
  return t.call('POST', '/microblog/drafts', { key, body: { title: text, tweets: [{ content: text, media }] } });
};
const verdicts = async (draftId: string) => {
  const accounts = [ids.x, ids.masto, ids.sky].join(',');
  const r = await t.call('GET', `/microblog/drafts/${draftId}/networks?accountIds=${accounts}`, { key });
  expect(r.status, r.text).toBe(200);
  return Object.fromEntries((r.body.networks as any[]).map((n) => [n.platform, n.posts[0]]));
};
const publish = (draftId: string, accountIds: string[]) =>
  t.call('POST', '/microblog/publish', { key, body: { draftId, accountIds } });

beforeAll(async () => {
  nets = await startNetworks();
  t = await startServer({ settings: nets.settings });
  key = await t.login();
  ids.x = (await connectOAuth(t, key, 'microblog')).body.accountUuid;
  ids.masto = (await connectOAuth(t, key, 'fedblog', { instanceUrl: nets.masto.url })).body.accountUuid;
  ids.sky = insertAccount(t, ownerId(t), 'skyblog', 'sky.example');
  const r = await upload(t.base, key, [{ filename: 'dot.png', data: pngBytes(8, 8, [10, 200, 10]) }]);
  expect(r.status, r.text).toBe(200);
  image = r.body.data.uploads[0].mediaId;
}, 60_000);

afterAll(async () => {
  await t?.close();
  await nets?.close();
});

describe('alt text limits per network', () => {
  it('a draft takes 5,000 characters of alt text and refuses 5,001', async () => {
    expect((await draft('a'.repeat(5000))).status).toBe(200);
    const over = await draft('a'.repeat(5001));
    expect(over.status).toBe(400);
    expect(over.body.details[0].path).toMatch(/tweets\.0\.media\.0\.altText/);
  });

  it('counts each network its way: 1,001 characters are over X only; 1,500 graphemes fit Bluesky', async () => {
    const x = await draft('b'.repeat(1001));
    const v = await verdicts(x.body.draft.id);
    expect(v.microblog).toMatchObject({
      valid: false,
      reason: "the alt text of image 1 has 1001 characters, over X's limit of 1000",
    });
    expect(v.fedblog.valid).toBe(true);
    expect(v.skyblog.valid).toBe(true);
    // e + a combining acute: one grapheme, two characters. Bluesky counts 1,500; Mastodon 3,000.
    const family = await draft('e\u0301'.repeat(1500));
    const f = await verdicts(family.body.draft.id);
    expect(f.skyblog.valid).toBe(true);
    expect(f.fedblog).toMatchObject({
      valid: false,
      reason: "the alt text of image 1 has 3000 characters, over Mastodon's limit of 1500",
    });
    const sky = await verdicts((await draft('e\u0301'.repeat(2001))).body.draft.id);
    expect(sky.skyblog.reason).toBe("the alt text of image 1 has 2001 characters, over Bluesky's limit of 2000");
  });

  it('over the limit nothing is sent; at the limit the whole text arrives, never cut', async () => {
    const over = await draft('c'.repeat(1001), 'Too long for X');
    const sent = nets.x.requests.length;
    const refused = await publish(over.body.draft.id, [ids.x]);
    expect(refused.status, refused.text).toBe(400);
    expect(refused.body.message).toMatch(/alt text of image 1 has 1001 characters, over X's limit of 1000/);
    expect(nets.x.requests.length).toBe(sent);
    const exact = 'd'.repeat(999) + 'e';
    const fits = await draft(exact, 'Just fits X');
    const r = await publish(fits.body.draft.id, [ids.x, ids.masto]);
    expect(r.status, r.text).toBe(200);
    expect(r.body.summary).toMatchObject({ succeeded: 2, failed: 0 });
    const xMedia = [...nets.x.state.media.values()].find((m) => m.altText?.startsWith('ddd'));
    expect(xMedia?.altText).toBe(exact);
    const masto = [...nets.masto.state.media.values()].find((m) => m.description?.startsWith('ddd'));
    expect(masto?.description).toBe(exact);
  });
});

describe('requireAltText', () => {
  beforeAll(async () => {
    const r = await t.call('PUT', '/settings', { key, body: { requireAltText: true } });
    expect(r.status, r.text).toBe(200);
    expect(r.body.settings.requireAltText).toBe(true);
  });
  afterAll(async () => {
    await t.call('PUT', '/settings', { key, body: { requireAltText: false } });
  });

  const missing = { path: 'tweets.0.media.0.altText', message: 'image 1 of post 1 has no alt text' };

  it('refuses publish, schedule and queue of an image without alt text, naming tweets.N.media.M.altText', async () => {
    const d = (await draft(undefined, 'No description')).body.draft.id;
    const p = await publish(d, [ids.x]);
    expect(p.status, p.text).toBe(400);
    expect(p.body.details).toEqual([missing]);
    const s = await t.call('POST', '/microblog/schedule', {
      key,
      body: { draftId: d, scheduledFor: new Date(Date.now() + 3_600_000).toISOString(), accountIds: [ids.x] },
    });
    expect(s.status, s.text).toBe(400);
    expect(s.body.details).toEqual([missing]);
    const q = await t.call('POST', '/microblog/queue', { key, body: { draftId: d } });
    expect(q.status, q.text).toBe(400);
    expect(q.body.details).toEqual([missing]);
  });

  it('refuses a single-network publish of media without alt text, naming the URL, before fetching it', async () => {
    const up = await upload(t.base, key, [{ filename: 'bare.png', data: pngBytes(4, 4, [200, 10, 10]) }]);
    const bare = up.body.data.uploads[0].mediaId;
    const sent = nets.masto.requests.length;
    const start = (await t.call('POST', '/credits', { key })).body.balance;
    const imageUrls = ['https://cdn.invalid/pic.png', `${t.base}/media/${bare}`];
    const r = await t.call('POST', '/fedblog/publish', {
      key,
      body: { accountUuid: ids.masto, type: 'single', text: 'Undescribed', imageUrls },
    });
    expect(r.status, r.text).toBe(400);
    expect(r.body.error).toBe('INVALID_INPUT');
    expect(r.body.details).toEqual([
      { path: 'imageUrls.0', message: 'image 1 has no alt text' },
      { path: 'imageUrls.1', message: 'image 2 has no alt text' },
    ]);
    expect(nets.masto.requests.length).toBe(sent);
    expect((await t.call('POST', '/credits', { key })).body.balance).toBe(start);
  });

  it('takes the alt text kept on the media item', async () => {
    expect((await t.call('PATCH', `/microblog/media/${image}`, { key, body: { altText: 'A green dot' } })).status).toBe(
      200,
    );
    const d = (await draft(undefined, 'Described on the item')).body.draft.id;
    const p = await publish(d, [ids.x]);
    expect(p.status, p.text).toBe(200);
  });
});
