/**
 * A LinkedIn post with a link becomes an article share (docs/decisions.md §19.5): `content.article`
 * with exactly `source`, `title`, `description` and `thumbnail` (an image URN the author owns,
 * uploaded through the Images API from the page's image). Sent from a draft through
 * POST /problog/publish and read back from the LinkedIn simulator, which refuses an article
 * without its source or title, with unknown fields, or with a thumbnail the author does not own.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts } from '../../server/db/schema.js';
import { createProblogAdapter } from '../../server/platforms/problog.adapter.js';
import { png } from '../helpers/media-files.js';
import { html, startLinkPages, type LinkPages } from '../helpers/link-pages.js';
import { connectOAuth } from '../helpers/oauth-connect.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { startLinkedInSimulator, type LinkedInSimulator } from '../simulators/linkedin.simulator.js';

let sim: LinkedInSimulator;
let site: LinkPages;
let t: TestServer;
let key: string;
let accountId: string;
const thumb = png(40, 20, 300);
const last = () => sim.state.posts.at(-1)!;

beforeAll(async () => {
  [sim, site] = await Promise.all([startLinkedInSimulator(), startLinkPages()]);
  site.route('/story', (_req, res) =>
    res.writeHead(200, { 'content-type': 'text/html' }).end(
      html(`
    <meta property="og:title" content="A story (worth) reading">
    <meta property="og:description" content="Why it matters">
    <meta property="og:image" content="thumb.png">`),
    ),
  );
  site.route('/thumb.png', (_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(thumb));
  t = await startServer({
    settings: {
      HERALD_PROBLOG_API_URL: sim.url,
      HERALD_PROBLOG_AUTHORIZE_URL: sim.authorizeUrl,
      HERALD_PROBLOG_TOKEN_URL: sim.tokenUrl,
      HERALD_PROBLOG_CLIENT_ID: sim.clientId,
      HERALD_PROBLOG_CLIENT_SECRET: sim.clientSecret,
    },
  });
  t.server.deps.platforms.register(createProblogAdapter({ pollIntervalMs: 10 }));
  key = await t.login();
  const connected = await connectOAuth(t, key, 'problog');
  expect(connected.status, JSON.stringify(connected.body)).toBe(200);
  accountId = connected.body.accountUuid;
});

afterAll(async () => {
  await t?.close();
  await Promise.all([sim?.close(), site?.close()]);
});

describe('LinkedIn article share', () => {
  it(
    'a draft with a link is published as content.article with ' + 'title, description and an uploaded thumbnail',
    async () => {
      const url = `${site.url}/story`;
      const d = await t.call('POST', '/microblog/drafts', {
        key,
        body: {
          title: 'li',
          tweets: [{ content: `Worth a read: ${url}` }, { content: 'Second part' }],
          selectedAccountIds: [accountId],
        },
      });
      const r = await t.call('POST', '/problog/publish', { key, body: { accountId, draftId: d.body.draft.id } });
      expect(r.status, r.text).toBe(200);
      const post = last();
      expect(post.urn).toBe(r.body.data.id);
      const urn = post.content!.article.thumbnail;
      expect(post.content).toEqual({
        article: { source: url, title: 'A story (worth) reading', description: 'Why it matters', thumbnail: urn },
      });
      const image = sim.state.images.get(urn)!;
      expect(image.owner).toBe(`urn:li:person:${sim.state.members[0].sub}`);
      expect(image.bytes!.equals(thumb)).toBe(true);
      // The second part is a comment on the post, not part of its commentary.
      expect(post.commentary).not.toContain('Second part');
      expect(sim.comments.at(-1)).toMatchObject({ object: post.urn, text: 'Second part' });
    },
  );

  it('no article for a draft with linkCard false', async () => {
    const d = await t.call('POST', '/microblog/drafts', {
      key,
      body: {
        title: 'li2',
        tweets: [{ content: `No card ${site.url}/story` }],
        linkCard: false,
        selectedAccountIds: [accountId],
      },
    });
    await t.call('POST', '/problog/publish', { key, body: { accountId, draftId: d.body.draft.id } });
    expect(last().content).toBeUndefined();
  });

  it('a network with its own text gets the card of its own first link (the dry run shows it)', async () => {
    const d = await t.call('POST', '/microblog/drafts', {
      key,
      body: { title: 'li3', tweets: [{ content: `Thread text ${site.url}/story` }], selectedAccountIds: [accountId] },
    });
    const id = d.body.draft.id;
    const plan = async () =>
      (await t.call('POST', '/problog/publish', { key, body: { accountId, draftId: id, dryRun: true } })).body.plan[0]
        .posts[0];
    expect((await plan()).linkCard).toMatchObject({ url: `${site.url}/story`, title: 'A story (worth) reading' });
    await t.call('PUT', `/microblog/drafts/${id}/platforms`, {
      key,
      body: { platforms: [{ platform: 'problog', content: 'LinkedIn words, no link' }] },
    });
    expect((await plan()).linkCard).toBeNull();
    await t.call('PUT', `/microblog/drafts/${id}/platforms`, {
      key,
      body: { platforms: [{ platform: 'problog', content: `LinkedIn words ${site.url}/other-page` }] },
    });
    expect((await plan()).linkCard).toEqual({ url: `${site.url}/other-page` });
  });

  it('a link in a later part gives its card to the post: the comments carry none', async () => {
    const url = `${site.url}/story`;
    const d = await t.call('POST', '/microblog/drafts', {
      key,
      body: {
        title: 'li4',
        tweets: [{ content: 'A thread whose link comes later' }, { content: `Here it is: ${url}` }],
        linkCard: { url },
        selectedAccountIds: [accountId],
      },
    });
    const id = d.body.draft.id;
    const dry = await t.call('POST', '/problog/publish', { key, body: { accountId, draftId: id, dryRun: true } });
    expect(dry.body.plan[0].posts.map((p: { linkCard: unknown }) => p.linkCard)).toEqual([
      expect.objectContaining({ url }),
      null,
    ]);
    const r = await t.call('POST', '/problog/publish', { key, body: { accountId, draftId: id } });
    expect(r.status, r.text).toBe(200);
    expect(last().content?.article).toMatchObject({ source: url, title: 'A story (worth) reading' });
    expect(sim.comments.at(-1)).toMatchObject({ object: last().urn, text: `Here it is: ${url}` });
  });

  it('the simulator refuses articles LinkedIn would refuse', async () => {
    const row = t.server.db.select().from(accounts).where(eq(accounts.id, accountId)).get()!;
    const token = (await t.server.services.credentials.load(row.id))!.accessToken;
    const author = `urn:li:person:${sim.state.members[0].sub}`;
    const send = (content: unknown, text: string) =>
      fetch(`${sim.url}/rest/posts`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'linkedin-version': '202601',
          'x-restli-protocol-version': '2.0.0',
          'content-type': 'application/json',
        },
        body: JSON.stringify({
          author,
          commentary: text,
          visibility: 'PUBLIC',
          distribution: { feedDistribution: 'MAIN_FEED', targetEntities: [], thirdPartyDistributionChannels: [] },
          lifecycleState: 'PUBLISHED',
          content,
        }),
      });
    expect((await send({ article: { title: 'no source' } }, 'a')).status).toBe(422);
    expect((await send({ article: { source: 'https://example.com' } }, 'b')).status).toBe(422);
    expect((await send({ article: { source: 'https://example.com', title: 't', url: 'x' } }, 'c')).status).toBe(422);
    expect(
      (await send({ article: { source: 'https://example.com', title: 't', thumbnail: 'urn:li:image:nope' } }, 'd'))
        .status,
    ).toBe(400);
    expect(
      (await send({ article: { source: 'https://example.com', title: 't' }, media: { id: 'x' } }, 'e')).status,
    ).toBe(422);
    expect((await send({ article: { source: 'https://example.com', title: 't' } }, 'f')).status).toBe(201);
  });
});
