/**
 * The metrics collector at shutdown: a pass that is waiting on a network when the server closes
 * ends there, before its next request, writes nothing after the database closed and logs no error
 * (the next start reads those posts again). Over HTTP against the Mastodon simulator, made slow.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNetworks, type Networks } from '../helpers/networks.js';
import { connectOAuth } from '../helpers/oauth-connect.js';
import { startServer, TestClock, type TestServer } from '../helpers/server.js';

let nets: Networks;
let t: TestServer;
const clock = new TestClock(Date.now());
const logged: string[] = [];

beforeAll(async () => {
  nets = await startNetworks();
  t = await startServer({
    settings: nets.settings,
    clock,
    metrics: { spacingMs: 0, firstMs: 3_600_000_000, everyMs: 3_600_000_000 },
    log: {
      info: () => undefined,
      warn: (m: string) => void logged.push(`warn: ${m}`),
      error: (m: string) => void logged.push(`error: ${m}`),
    },
  });
}, 60_000);
afterAll(async () => {
  await t?.close();
  await nets?.close();
});

describe('metrics collector at shutdown', () => {
  it('a pass running when the server closes stops between requests, writes nothing and logs nothing', async () => {
    const key = await t.login();
    const c = await connectOAuth(t, key, 'fedblog', { instanceUrl: nets.masto.url });
    expect(c.status, JSON.stringify(c.body)).toBe(200);
    for (let i = 0; i < 3; i++) {
      const d = await t.call('POST', '/microblog/drafts', {
        key,
        body: { title: `stop ${i}`, tweets: [{ content: `stop ${i}` }] },
      });
      expect(d.status, d.text).toBe(200);
      const r = await t.call('POST', '/publish/multi-platform', {
        key,
        body: { draftId: d.body.draft.id, targetAccounts: [{ accountId: c.body.accountUuid, platform: 'fedblog' }] },
      });
      expect(r.status, r.text).toBe(200);
    }
    clock.advance(2 * 3_600_000);

    // Each read now takes a while at the instance: the server closes while the first is in flight.
    const reads = () => nets.masto.requests.filter((r) => /^GET \/api\/v1\/statuses\//.test(r)).length;
    const before = reads();
    nets.masto.faults.latencyMs = 400;
    logged.length = 0;
    const pass = t.server.services.metricsCollector.run();
    while (reads() === before) await new Promise((r) => setTimeout(r, 5));
    await t.server.close();
    const report = await pass;
    expect(report.read).toBe(0);
    // The remaining reads were never asked for.
    await new Promise((r) => setTimeout(r, 500));
    expect(reads() - before).toBe(1);
    expect(logged.join('\n')).toBe('');

    const db = new Database(path.join(t.dataDir, 'herald.db'), { readonly: true });
    try {
      expect(db.prepare('SELECT count(*) AS n FROM post_metrics').get()).toEqual({ n: 0 });
    } finally {
      db.close();
    }
    nets.masto.faults.latencyMs = 0;
    fs.rmSync(t.dataDir, { recursive: true, force: true });
  });
});
