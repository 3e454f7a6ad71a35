/**
 * docs/decisions.md §20.1 "Thread fails at part 3, then a kill during part 4 on retry". The headless app (its
 * own process) publishes a 5-post thread to X, Mastodon and Threads (simulators behind fault
 * proxies). Part 3 is refused with a 503 everywhere: parts 1–2 stay published, the targets fail.
 * The user publishes again: part 3 goes out, and part 4 is held — on X and Threads after the
 * network committed it (its answer never comes back), on Mastodon before it arrives — while the
 * process is SIGKILLed. A new process on the same folder resumes each thread at its first
 * unpublished part, replying to the last published one.
 *
 * Pass: each network holds the five posts once each, as one reply chain in order.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Platform } from '../../server/core/config.js';
import { startChild, type ChildServer } from '../helpers/child-server.js';
import { startFaultProxy, type FaultProxy, type Held } from '../helpers/fault-proxy.js';
import { postsOn, startNetworks, type Networks } from '../helpers/networks.js';
import { connectOAuth } from '../helpers/oauth-connect.js';
import { tempDir } from '../helpers/server.js';
import { childEnv, createDrafts, readDb, until } from './harness.js';
import { reportFigure } from './quality.js';

type ThreadNet = 'microblog' | 'fedblog' | 'threadblog';
const NETS: ThreadNet[] = ['microblog', 'fedblog', 'threadblog'];
/** The request that creates a post, as the proxies log it. */
const POST: Record<ThreadNet, RegExp> = {
  microblog: /^POST \/2\/tweets$/,
  fedblog: /^POST \/api\/v1\/statuses$/,
  threadblog: /^POST .*\/threads_publish$/,
};
const PARTS = Array.from({ length: 5 }, (_, i) => `Resumed thread, part ${i + 1} of 5`);

let nets: Networks;
const proxies = {} as Record<ThreadNet, FaultProxy>;
let dataDir: string;
let env: Record<string, string | undefined>;
const children: ChildServer[] = [];

beforeAll(async () => {
  nets = await startNetworks({ containerReadyMs: 0 });
  proxies.microblog = await startFaultProxy(nets.x.url);
  proxies.fedblog = await startFaultProxy(nets.masto.url);
  proxies.threadblog = await startFaultProxy(nets.threads.url);
  dataDir = tempDir('herald-thread-resume-');
  env = childEnv(nets, {
    HERALD_MICROBLOG_API_URL: proxies.microblog.url,
    HERALD_THREADBLOG_API_URL: proxies.threadblog.url,
  });
}, 120_000);

afterAll(async () => {
  await Promise.all(children.map((c) => c.kill()));
  await Promise.all(Object.values(proxies).map((p) => p.close()));
  await nets?.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('a thread that failed at part 3, killed during part 4 on retry', () => {
  it('resumes at the first unpublished part on every network: no duplicate, no order error', async () => {
    let child = await startChild({ dataDir, env });
    children.push(child);
    const key = await child.login();
    const ids = {} as Record<ThreadNet, string>;
    for (const [p, body] of [
      ['microblog', {}],
      ['fedblog', { instanceUrl: proxies.fedblog.url }],
      ['threadblog', {}],
    ] as const) {
      const r = await connectOAuth(child, key, p, body);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      ids[p] = r.body.accountUuid as string;
    }
    const [draftId] = await createDrafts(child, key, [PARTS]);
    const targets = { draftId, targetAccounts: NETS.map((p) => ({ accountId: ids[p], platform: p })) };

    // 1. Part 3 refused everywhere: parts 1–2 published, the targets failed.
    for (const p of NETS) proxies[p].fail(POST[p], 503, { skip: 2 });
    const first = await child.call('POST', '/publish/multi-platform', { key, body: targets });
    expect(first.status, first.text).toBe(200);
    for (const r of first.body.results) expect(r, r.platform).toMatchObject({ success: false, status: 'failed' });
    for (const p of NETS)
      expect(
        (await postsOn(nets, p)).map((x) => x.text),
        p,
      ).toEqual(PARTS.slice(0, 2));

    // 2. Publish again; part 3 goes out, part 4 is held; the process is killed meanwhile.
    const held: Record<ThreadNet, Held> = {
      microblog: proxies.microblog.hold(POST.microblog, { skip: 1, after: 'commit' }),
      fedblog: proxies.fedblog.hold(POST.fedblog, { skip: 1 }),
      threadblog: proxies.threadblog.hold(POST.threadblog, { skip: 1, after: 'commit' }),
    };
    const retry = child.call('POST', '/publish/multi-platform', { key, body: targets }).catch(() => undefined);
    await Promise.all(NETS.map((p) => held[p].arrived));
    await child.kill();
    await retry;
    for (const p of NETS) held[p].release();
    // What the networks hold at the kill: X and Threads have part 4 (unanswered), Mastodon not.
    expect((await postsOn(nets, 'microblog')).map((x) => x.text)).toEqual(PARTS.slice(0, 4));
    expect((await postsOn(nets, 'threadblog')).map((x) => x.text)).toEqual(PARTS.slice(0, 4));
    expect((await postsOn(nets, 'fedblog')).map((x) => x.text)).toEqual(PARTS.slice(0, 3));

    // 3. A new process on the same folder resumes the interrupted publications.
    child = await startChild({ dataDir, env });
    children.push(child);
    await until(
      'the resumed threads to finish',
      () => {
        const rows = readDb(dataDir, (db) =>
          db
            .prepare('SELECT status FROM publications WHERE draft_id = ? ORDER BY created_at DESC LIMIT 3')
            .all(draftId),
        ) as { status: string }[];
        return rows.length === 3 && rows.every((r) => r.status !== 'publishing') ? rows : undefined;
      },
      60_000,
      200,
    );
    const progress = await child.call('GET', `/microblog/publish/progress?draftId=${draftId}`, { key });
    for (const e of progress.body.entries) expect(e, e.platform).toMatchObject({ status: 'published' });

    let duplicates = 0;
    let orderErrors = 0;
    for (const p of NETS as Platform[]) {
      const posts = await postsOn(nets, p);
      const texts = posts.map((x) => x.text);
      duplicates += texts.length - new Set(texts).size;
      expect(texts.sort(), p).toEqual([...PARTS].sort());
      const chain = PARTS.map((text) => posts.find((x) => x.text === text)!);
      chain.forEach((post, i) => {
        if (post.parent !== (i === 0 ? undefined : chain[i - 1].id)) orderErrors += 1;
      });
    }
    expect(duplicates).toBe(0);
    expect(orderErrors).toBe(0);
    reportFigure(
      'Thread resume',
      `5-post thread on X, Mastodon, Threads: failed at part 3, killed during part 4 on retry (committed on ` +
        `X and Threads, not on Mastodon), resumed after restart; duplicates ${duplicates}, order errors ` +
        `${orderErrors}`,
    );
    await child.kill('SIGTERM');
  }, 180_000);
});
