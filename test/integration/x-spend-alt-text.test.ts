/**
 * X charges alt text as a request of its own (Media Metadata, POST /2/media/metadata): the spend
 * meter counts it at the setting xMediaMetadataPriceUsd (default $0.005) for each image sent
 * with alt text, whether the text is the post's or kept on the media item; an image without
 * one costs nothing more. The dry run prices them the same way, and the price is edited like X's
 * other prices. Against the X simulator, with the requests it really received.
 */
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { upload } from '../helpers/media-files.js';
import { connectOAuth } from '../helpers/oauth-connect.js';
import { pngBytes } from '../helpers/png.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { startXSimulator, type XSimulator } from '../simulators/x.simulator.js';

vi.setConfig({ testTimeout: 60_000 });

const CLIENT = { clientId: 'herald-alt-client', clientSecret: 'herald-alt-secret' };
let x: XSimulator;
let t: TestServer;
let key: string;
let xId: string;
const media: string[] = [];

beforeAll(async () => {
  x = await startXSimulator({ ...CLIENT, rejectDuplicates: false });
  t = await startServer({
    scheduler: false,
    settings: {
      HERALD_MICROBLOG_API_URL: x.url,
      HERALD_MICROBLOG_AUTHORIZE_URL: x.authorizeUrl,
      HERALD_MICROBLOG_TOKEN_URL: x.tokenUrl,
      HERALD_MICROBLOG_CLIENT_ID: CLIENT.clientId,
      HERALD_MICROBLOG_CLIENT_SECRET: CLIENT.clientSecret,
    },
  });
  key = await t.login();
  xId = (await connectOAuth(t, key, 'microblog')).body.accountUuid;
  const r = await upload(
    t.base,
    key,
    [0, 1, 2].map((i) => ({ filename: `sq${i}.png`, data: pngBytes(8 + i, 8, [40 * i, 90, 200]) })),
  );
  expect(r.status, r.text).toBe(200);
  media.push(...r.body.data.uploads.map((u: { mediaId: string }) => u.mediaId));
  // One alt text kept on the media item itself.
  expect(
    (await t.call('PATCH', `/microblog/media/${media[1]}`, { key, body: { altText: 'Kept on the item' } })).status,
  ).toBe(200);
});
afterAll(async () => {
  await t?.close();
  await x?.close();
});

const spend = async () => (await t.call('POST', '/credits', { key })).body.xSpend.monthUsd as number;
const usageRows = () =>
  t.server.sqlite
    .prepare("SELECT cost_usd AS usd FROM post_usage WHERE platform = 'microblog' ORDER BY id")
    .pluck()
    .all();
const metadataCalls = () => x.requests.filter((r) => r === 'POST /2/media/metadata').length;

async function draftWith(content: string, items: { mediaId: string; altText?: string }[]): Promise<string> {
  const r = await t.call('POST', '/microblog/drafts', {
    key,
    body: { title: content, tweets: [{ content, media: items }] },
  });
  expect(r.status, r.text).toBe(200);
  return r.body.draft.id as string;
}

it('counts one Media Metadata request per image with alt text in xSpend, at the editable price', async () => {
  expect(await spend()).toBe(0);
  // Two alt texts (one in the draft, one on the item) and an image without one.
  const draftId = await draftWith('Three squares', [
    { mediaId: media[0], altText: 'A blue square' },
    { mediaId: media[1] },
    { mediaId: media[2] },
  ]);
  // The dry run prices both alt texts, the draft's and the item's, as the send will.
  const dry = await t.call('POST', '/microblog/publish', { key, body: { draftId, accountIds: [xId], dryRun: true } });
  expect(dry.body.xCostUsd).toBe(0.025);
  const calls = metadataCalls();
  const sent = await t.call('POST', '/microblog/publish', { key, body: { draftId, accountIds: [xId] } });
  expect(sent.status, sent.text).toBe(200);
  // X was really asked twice, and the meter counts both: 0.015 + 2 × 0.005.
  expect(metadataCalls() - calls).toBe(2);
  expect(usageRows()).toEqual([0.025]);
  expect(await spend()).toBe(0.025);

  // The price is a setting like X's others, applied at once; xReadPriceUsd is listed beside it.
  const s = await t.call('PUT', '/settings', { key, body: { xMediaMetadataPriceUsd: 0.01 } });
  expect(s.status, s.text).toBe(200);
  expect(s.body.settings).toMatchObject({ xMediaMetadataPriceUsd: 0.01, xReadPriceUsd: 0.001 });
  expect((await t.call('PUT', '/settings', { key, body: { xReadPriceUsd: -1 } })).status).toBe(400);
  const one = await draftWith('One square, described', [{ mediaId: media[2], altText: 'A lighter square' }]);
  // The dry run prices the draft's alt text the same way.
  expect(
    (await t.call('POST', '/microblog/publish', { key, body: { draftId: one, accountIds: [xId], dryRun: true } })).body
      .xCostUsd,
  ).toBe(0.025);
  expect((await t.call('POST', '/microblog/publish', { key, body: { draftId: one, accountIds: [xId] } })).status).toBe(
    200,
  );
  expect(usageRows()).toEqual([0.025, 0.025]);
  expect(await spend()).toBe(0.05);
});
