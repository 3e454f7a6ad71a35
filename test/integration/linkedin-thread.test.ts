/**
 * A thread to LinkedIn, which has none, over HTTP: the first part goes as the post, each later part
 * as a comment on it, in order (POST /rest/socialActions/{post urn}/comments), each part recorded
 * as sent with its own id and URL; a comment whose answer is lost is found among the post's
 * comments, not sent again. Then a thread killed after its second comment: the headless
 * Herald (its own process) is SIGKILLed while the third comment is held at a fault proxy, once
 * after LinkedIn took it (its answer never comes back) and once before it reached LinkedIn. A new
 * Herald on the same folder resumes: the post and the first two comments are never sent again, the
 * third exists once (found among the post's comments, or sent now), then the fourth. The progress
 * shows each part: three sent and the rest to go while it is stalled, all five after the resume.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChild, type ChildServer } from '../helpers/child-server.js';
import { BIN, cliEnv } from '../helpers/cli.js';
import { startFaultProxy, type FaultProxy } from '../helpers/fault-proxy.js';
import { connectOAuth } from '../helpers/oauth-connect.js';
import { startServer, tempDir, type TestServer } from '../helpers/server.js';
import { startLinkedInSimulator, type LinkedInSimulator } from '../simulators/linkedin.simulator.js';
import { until } from '../helpers/until.js';

let li: LinkedInSimulator;
let proxy: FaultProxy;
let settings: Record<string, string>;
const children: ChildServer[] = [];
const servers: TestServer[] = [];
const dirs: string[] = [];

const COMMENT = /^POST \/rest\/socialActions\/[^/]+\/comments$/;
const parts = (label: string) => Array.from({ length: 5 }, (_, i) => `${label}: part ${i + 1} of 5`);

beforeAll(async () => {
  li = await startLinkedInSimulator();
  proxy = await startFaultProxy(li.url);
  settings = {
    HERALD_PROBLOG_API_URL: proxy.url,
    HERALD_PROBLOG_AUTHORIZE_URL: li.authorizeUrl,
    HERALD_PROBLOG_TOKEN_URL: li.tokenUrl,
    HERALD_PROBLOG_CLIENT_ID: li.clientId,
    HERALD_PROBLOG_CLIENT_SECRET: li.clientSecret,
  };
}, 60_000);

afterAll(async () => {
  await Promise.all(children.map((c) => c.kill()));
  for (const s of servers) await s.close();
  await proxy?.close();
  await li?.close();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

type Api = Pick<TestServer, 'call'>;

async function connectAndDraft(api: Api, key: string, texts: string[]) {
  const connected = await connectOAuth(api as TestServer, key, 'problog');
  expect(connected.status, JSON.stringify(connected.body)).toBe(200);
  const draft = await api.call('POST', '/microblog/drafts', {
    key,
    body: { title: 'LinkedIn thread', tweets: texts.map((content) => ({ content })) },
  });
  expect(draft.status, draft.text).toBe(200);
  return { accountId: connected.body.accountUuid as string, draftId: draft.body.draft.id as string };
}

/** The post with `texts[0]` and the comments on it, oldest first, as LinkedIn holds them. */
function held(texts: string[]) {
  const posts = li.state.posts.filter((p) => texts.includes(p.commentary));
  const comments = li.comments.filter((c) => posts.some((p) => p.urn === c.object));
  return { posts, comments };
}

describe('a 5-part thread to LinkedIn', () => {
  it('arrives as one post and four comments on it, in order, each part recorded with its own id', async () => {
    const t = await startServer({ settings });
    servers.push(t);
    const key = await t.login();
    const texts = parts('Post and comments');
    const { accountId, draftId } = await connectAndDraft(t, key, texts);
    const from = proxy.requests.length;

    const r = await t.call('POST', '/problog/publish', { key, body: { accountId, draftId } });
    expect(r.status, r.text).toBe(200);

    const { posts, comments } = held(texts);
    expect(posts.map((p) => p.commentary)).toEqual([texts[0]]);
    const post = posts[0];
    expect(comments.map((c) => [c.object, c.actor, c.text])).toEqual(
      texts.slice(1).map((text) => [post.urn, post.author, text]),
    );
    // What went over the wire, in order: the post, then one comment per later part on it.
    const writes = proxy.requests.slice(from).filter((q) => q.startsWith('POST /rest/'));
    const onPost = `POST /rest/socialActions/${encodeURIComponent(post.urn)}/comments`;
    expect(writes).toEqual(['POST /rest/posts', onPost, onPost, onPost, onPost]);
    expect(r.body.data).toMatchObject({ id: post.urn, ids: [post.urn, ...comments.map((c) => c.urn)] });

    // Each part's progress is its own row: sent, with the network's id and a URL to it.
    const rows = t.server.sqlite
      .prepare(
        'SELECT pp.position, pp.status, pp.network_id AS id, pp.url FROM publication_parts pp JOIN publications p ' +
          'ON p.id = pp.publication_id WHERE p.draft_id = ? ORDER BY pp.position',
      )
      .all(draftId) as { position: number; status: string; id: string; url: string }[];
    expect(rows.map((x) => [x.position, x.status, x.id])).toEqual(
      [post.urn, ...comments.map((c) => c.urn)].map((id, i) => [i, 'sent', id]),
    );
    expect(rows[0].url).toBe(`https://www.linkedin.com/feed/update/${post.urn}`);
    for (const [i, c] of comments.entries())
      expect(rows[i + 1].url).toBe(
        `https://www.linkedin.com/feed/update/${post.urn}?commentUrn=${encodeURIComponent(c.urn)}`,
      );
    const progress = await t.call('GET', `/microblog/publish/progress?draftId=${draftId}`, { key });
    expect(progress.body.entries[0]).toMatchObject({ status: 'published', url: rows[0].url, attempts: 1 });

    // Taken back: the comments are deleted as comments, last first, then the post.
    const history = await t.call('GET', '/microblog/publications', { key });
    const pub = history.body.publications.find((p: { draftId: string }) => p.draftId === draftId);
    const from2 = proxy.requests.length;
    const del = await t.call('DELETE', `/microblog/publications/${pub.id}`, { key });
    expect(del.status, del.text).toBe(200);
    expect(del.body.parts).toEqual([4, 3, 2, 1, 0].map((position) => ({ position, outcome: 'deleted' })));
    expect(held(texts)).toEqual({ posts: [], comments: [] });
    const deletes = proxy.requests.slice(from2).filter((q) => q.startsWith('DELETE '));
    expect(deletes).toEqual([
      ...[...comments].reverse().map((c) => `${onPost.replace('POST', 'DELETE')}/${c.id}`),
      `DELETE /rest/posts/${encodeURIComponent(post.urn)}`,
    ]);
  }, 60_000);
});

/** A new 5-part thread on the first test's server, to its LinkedIn account. */
async function anotherThread(label: string) {
  const t = servers[0]!;
  const key = await t.login();
  const texts = parts(label);
  const draft = await t.call('POST', '/microblog/drafts', {
    key,
    body: { title: label, tweets: texts.map((content) => ({ content })) },
  });
  const accounts = await t.call('GET', '/accounts', { key });
  const accountId = accounts.body.accounts.find((a: { platform: string }) => a.platform === 'problog').uuid as string;
  return { t, key, texts, draftId: draft.body.draft.id as string, accountId };
}

describe('a LinkedIn comment whose answer is lost', () => {
  it("is found among the post's comments, not sent again; the thread goes on", async () => {
    const { t, key, texts, draftId, accountId } = await anotherThread('Lost answer');
    proxy.dropAfterCommit(COMMENT, { skip: 1 });
    const r = await t.call('POST', '/problog/publish', { key, body: { accountId, draftId } });
    expect(r.status, r.text).toBe(200);
    expect(proxy.fired.some((f) => f.startsWith('drop POST /rest/socialActions/'))).toBe(true);
    const { posts, comments } = held(texts);
    expect(posts).toHaveLength(1);
    expect(comments.map((c) => c.text)).toEqual(texts.slice(1));
  }, 60_000);
});

describe('herald publish following a LinkedIn thread', () => {
  it('shows each part as it goes out, while the thread is stalled too, then the whole thread', async () => {
    const { t, key, texts, draftId, accountId } = await anotherThread('Followed from the CLI');
    const home = tempDir('herald-li-cli-');
    dirs.push(home);
    const hold = proxy.hold(COMMENT, { skip: 2 });
    const child = spawn(process.execPath, [BIN, 'publish', draftId, '--accounts', accountId], {
      env: cliEnv(home, { HERALD_API_KEY: key, HERALD_BASE_URL: t.base }) as NodeJS.ProcessEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
    const exited = new Promise<number | null>((r) => child.on('close', r));
    await hold.arrived;
    // No event comes while the third comment is held: the CLI reads the parts and says where it is.
    await until('the CLI to show part 4 of 5 going out', async () => err.includes('publishing (part 4 of 5)'), 15_000);
    hold.release();
    expect(await exited, err).toBe(0);
    expect(err).toMatch(/✓ LinkedIn\s+\S.*  published \(5 parts\)  https:\/\/www\.linkedin\.com\//);
    expect(out).toContain('published (5 parts)');
    expect(held(texts).comments.map((c) => c.text)).toEqual(texts.slice(1));
  }, 90_000);
});

describe.each([
  ['after LinkedIn took the third comment', 'commit' as const],
  ['before the third comment reached LinkedIn', 'before' as const],
])('a LinkedIn thread killed after its second comment (%s)', (_label, when) => {
  it('resumes on the next start: the rest is sent once, nothing twice', async () => {
    const dataDir = tempDir('herald-li-thread-');
    dirs.push(dataDir);
    const child = await startChild({ dataDir, env: settings });
    children.push(child);
    const key = await child.login();
    const texts = parts(`Killed ${when}`);
    const { accountId, draftId } = await connectAndDraft(child, key, texts);

    const hold = proxy.hold(COMMENT, when === 'commit' ? { after: 'commit', skip: 2 } : { skip: 2 });
    const accepted = await child.call('POST', '/microblog/publish', {
      key,
      body: { draftId, accountIds: [accountId], async: true },
    });
    expect(accepted.status, accepted.text).toBe(202);
    await hold.arrived;
    // Stalled on the third comment: the post and two comments are out, the fourth part is in flight.
    const stalled = await child.call('GET', `/microblog/publish/progress?draftId=${draftId}`, { key });
    expect(stalled.body.entries[0].status).toBe('publishing');
    expect(stalled.body.entries[0].parts.map((x: { status: string }) => x.status)).toEqual([
      'sent',
      'sent',
      'sent',
      'sending',
      'pending',
    ]);
    expect(stalled.body.entries[0].parts.map((x: { sentAs: string }) => x.sentAs)).toEqual([
      'post',
      'comment',
      'comment',
      'comment',
      'comment',
    ]);
    expect(stalled.body.entries[0].statusText).toBe(
      'Sending on LinkedIn (3 of 5 parts sent). Waiting for the network to confirm.',
    );
    await child.kill();
    // What LinkedIn holds at the kill: the post, two comments, and the third when it was taken.
    const atKill = held(texts);
    expect(atKill.posts).toHaveLength(1);
    expect(atKill.comments.map((c) => c.text)).toEqual(texts.slice(1, when === 'commit' ? 4 : 3));
    const postsBefore = proxy.count('POST /rest/posts');
    const commentsBefore = proxy.count(COMMENT);
    // The held request is never let go: its client is dead.
    const fromRestart = proxy.requests.length;

    // The next start takes the folder over and resumes what the kill left `publishing`.
    const next = await startServer({ dataDir, settings });
    servers.push(next);
    const key2 = await next.login();
    await until(
      'the thread published',
      async () => {
        const p = await next.call('GET', `/microblog/publish/progress?draftId=${draftId}`, { key: key2 });
        return p.body.entries[0]?.status === 'published';
      },
      60_000,
    );

    const { posts, comments } = held(texts);
    expect(posts).toHaveLength(1);
    expect(comments.map((c) => [c.object, c.text])).toEqual(texts.slice(1).map((text) => [posts[0].urn, text]));
    // After the restart: no post; the fourth comment, and the third when it never arrived.
    expect(proxy.count('POST /rest/posts')).toBe(postsBefore);
    expect(proxy.count(COMMENT) - commentsBefore).toBe(when === 'commit' ? 1 : 2);
    // The comment in flight at the kill was looked for among the post's comments before anything was sent.
    const lookup = /^GET \/rest\/socialActions\/.+\/comments$/;
    expect(proxy.requests.slice(fromRestart).some((q) => lookup.test(q))).toBe(true);
    const rows = next.server.sqlite
      .prepare(
        'SELECT pp.status, pp.network_id AS id FROM publication_parts pp JOIN publications p ON p.id = ' +
          'pp.publication_id WHERE p.draft_id = ? ORDER BY pp.position',
      )
      .all(draftId) as { status: string; id: string }[];
    expect(rows).toEqual([posts[0].urn, ...comments.map((c) => c.urn)].map((id) => ({ status: 'sent', id })));
    // The progress after the resume: all five parts sent, each with its own address.
    const done = await next.call('GET', `/microblog/publish/progress?draftId=${draftId}`, { key: key2 });
    expect(done.body.entries[0].parts).toEqual(
      [posts[0].urn, ...comments.map((c) => c.urn)].map((urn, position) => ({
        position,
        status: 'sent',
        url:
          position === 0
            ? `https://www.linkedin.com/feed/update/${posts[0].urn}`
            : `https://www.linkedin.com/feed/update/${posts[0].urn}?commentUrn=${encodeURIComponent(urn)}`,
        sentAs: position === 0 ? 'post' : 'comment',
      })),
    );
    expect(done.body.entries[0].statusText).toBe('Published on LinkedIn.');
  }, 120_000);
});
