/**
 * Analytics at scale (issue #37): 10,000 published Bluesky posts tracked by one Herald (in this
 * process, with the real PDS proxying getPosts to a small AppView that answers any post). A
 * collection pass over all of them: requests per post (goal: under 1 per 25) and the longest the
 * event loop was held meanwhile (goal: ≤ 50 ms; the PDS and the AppView share the loop, so the
 * figure is an upper bound for Herald's own part). Then the Analytics page in Chromium with the
 * same 10,000 posts: from opening the page to its totals, top posts and heatmap shown (goal:
 * ≤ 500 ms, the API answer included).
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { finishGoals, fmt, goal, loadNote, printTable } from './lib.js';
import { startAppView } from '../test/peers/appview.js';
import { startPds } from '../test/peers/pds.js';
import { seedAnalytics } from '../test/helpers/analytics-seed.js';
import { ownerId } from '../test/helpers/fixtures.js';
import { signIn, startUiApp } from '../test/helpers/ui-app.js';

const POSTS = 10_000;
const HOUR = 3_600_000;

async function collectionPass(): Promise<string[][]> {
  const appView = await startAppView({ lookUp: false });
  const pds = await startPds({ appView });
  const sky = await pds.createAccount('bench');
  const app = await startUiApp({ server: { scheduler: false, metrics: false } });
  try {
    const t = app.t;
    const key = await t.login();
    const r = await t.call('POST', '/skyblog/auth', {
      key,
      body: { identifier: sky.handle, appPassword: sky.appPassword, service: pds.url },
    });
    if (r.status !== 200) throw new Error(`connecting Bluesky answered ${r.status}: ${r.text}`);
    const account = { id: r.body.account.uuid as string, platform: 'skyblog' };
    const user = ownerId(t);
    // Published 2 to 3 hours ago: each is due for its first read.
    const seeded = seedAnalytics(t.server.sqlite, { userId: user, accounts: [account], count: POSTS, days: 0.05 });
    const setNetId = t.server.sqlite.prepare('UPDATE publication_parts SET network_id = ? WHERE publication_id = ?');
    const due = t.server.sqlite.prepare('UPDATE metric_tracks SET next_at = ? WHERE publication_id = ?');
    t.server.sqlite.transaction(() => {
      for (const p of seeded) {
        setNetId.run(`at://${sky.did}/app.bsky.feed.post/3k${p.id.replace(/\D/g, '').padStart(11, '0')}`, p.id);
        due.run(Date.now() - HOUR, p.id);
      }
    })();
    const collector = t.server.services.metricsCollector;
    collector.opts.spacingMs = 0;
    const measured = async () => {
      const loop = monitorEventLoopDelay({ resolution: 5 });
      loop.enable();
      const started = performance.now();
      const before = appView.calls.length;
      const pass = await collector.run();
      loop.disable();
      return {
        pass,
        ms: performance.now() - started,
        maxBlockMs: loop.max / 1e6,
        calls: appView.calls.length - before,
      };
    };
    // The first pass also pays the PDS's own first-proxy costs (same process); the second, after a
    // refresh of all 10,000, is the steady state the goal is about.
    const first = await measured();
    // Due again, written straight to the table: a refresh over HTTP would also wake a pass of its own.
    t.server.sqlite.prepare("UPDATE metric_tracks SET next_at = ?, state = 'tracking'").run(Date.now() - 1);
    const again = await measured();
    const { pass, ms, maxBlockMs, calls } = again;
    const perPost = pass.requests / Math.max(1, pass.read);
    return [
      ['figure', 'value', 'goal'],
      ['posts read in one pass', String(pass.read), `${POSTS}`],
      ['getPosts calls (AppView)', String(calls), `≤ ${POSTS / 25}`],
      ['requests per post read', fmt(perPost, 4), `≤ 0.04${goal('at most 1 request per 25 posts', perPost <= 1 / 25)}`],
      [
        'longest event-loop block (ms)',
        fmt(maxBlockMs, 1),
        `≤ 50${goal('event loop never blocked more than 50 ms', maxBlockMs <= 50)}`,
      ],
      ['pass duration (s)', fmt(ms / 1000, 1), ''],
      ['first pass: longest block (ms), duration (s)', `${fmt(first.maxBlockMs, 1)}, ${fmt(first.ms / 1000, 1)}`, ''],
    ];
  } finally {
    await app.close();
    await pds.close();
    await appView.close();
  }
}

async function pageRender(): Promise<string[][]> {
  const app = await startUiApp({ server: { scheduler: false, metrics: false } });
  try {
    await signIn(app, '#/history');
    const user = ownerId(app.t);
    const { addAccount } = await import('../test/helpers/drafts.js');
    const accounts = ['skyblog', 'fedblog', 'threadblog', 'microblog', 'problog'].map((p) => ({
      id: addAccount(app.t, user, p).accountId,
      platform: p,
    }));
    seedAnalytics(app.t.server.sqlite, { userId: user, accounts, count: POSTS, days: 25 });
    const runs: number[] = [];
    for (let i = 0; i < 5; i++) {
      await app.page.goto(`${app.origin}/#/history`);
      await app.page.locator('nav[aria-label="Main"]').waitFor();
      // A string, not a function: tsx's helpers (__name) do not exist in the page.
      const ms = (await app.page.evaluate(`new Promise((resolve) => {
        const t0 = performance.now();
        location.hash = '#/analytics';
        const check = () => {
          if (document.querySelectorAll('.heat-cell').length === 168 && document.querySelector('[data-top]'))
            resolve(performance.now() - t0);
          else requestAnimationFrame(check);
        };
        check();
      })`)) as number;
      runs.push(ms);
    }
    const shown = await app.page.locator('[data-totals] strong').first().textContent();
    const median = [...runs].sort((a, b) => a - b)[2]!;
    return [
      ['figure', 'value', 'goal'],
      ['posts on the page', String(shown), String(POSTS)],
      [
        'render, median of 5 (ms)',
        fmt(median, 0),
        `≤ 500${goal('Analytics page with 10,000 posts ≤ 500 ms', median <= 500)}`,
      ],
      ['render, each run (ms)', runs.map((r) => fmt(r, 0)).join(', '), ''],
    ];
  } finally {
    await app.close();
  }
}

printTable(`Analytics collection: ${POSTS} Bluesky posts tracked`, await collectionPass());
printTable(`Analytics page: ${POSTS} posts in Chromium`, await pageRender());
console.log(loadNote());
finishGoals();
