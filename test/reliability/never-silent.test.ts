/**
 * docs/decisions.md §20.1 "Never silent": every way a scheduled post can end without going out stays visible
 * in progress and in history with its reason and the next step, and leaves one log line. Driven
 * through a real server (real SQLite, real HTTP, the real scheduler under an injected clock) and
 * the network simulators: credits short at fire time, an expired token that cannot be renewed,
 * a network refusing the post, a network failing past its retries, and a post missed while
 * Herald was closed. (Disk full is wt-storage's.) Figure: silent endings, 0 of N.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Platform } from '../../server/core/config.js';
import type { Logger } from '../../server/core/logger.js';
import type { Waker } from '../../server/jobs/scheduler.js';
import { connectAll, startNetworks, useFastPolling, type Networks } from '../helpers/networks.js';
import { startServer, TestClock, type TestServer } from '../helpers/server.js';
import { reportFigure } from './quality.js';

vi.setConfig({ testTimeout: 90_000 });

class ManualWaker implements Waker {
  arm() {}
  cancel() {}
}

const lines: string[] = [];
const log: Logger = {
  info: () => {},
  debug: () => {},
  warn: (msg: string) => {
    lines.push(msg);
  },
  error: (msg: string) => {
    lines.push(msg);
  },
} as unknown as Logger;

let nets: Networks;
let t: TestServer;
let key: string;
let ids: Record<Platform, string>;
const clock = new TestClock(Date.now());
const outcomes: { ending: string; silent: string[] }[] = [];

beforeAll(async () => {
  nets = await startNetworks();
  t = await startServer({
    clock,
    log,
    settings: { ...nets.settings, HERALD_MONTHLY_CREDITS: '1000' },
    scheduler: { waker: new ManualWaker(), sweepMs: 3_600_000 },
  });
  useFastPolling(t);
  key = await t.login();
  ids = (await connectAll(t, key, nets)) as Record<Platform, string>;
}, 120_000);

afterAll(async () => {
  const silent = outcomes.filter((o) => o.silent.length > 0);
  reportFigure('Never silent', `silent endings ${silent.length} of ${outcomes.length}`);
  await t?.close();
  await nets?.close();
});

async function schedule(platform: Platform, text: string, inMs = 60_000): Promise<string> {
  const d = await t.call('POST', '/microblog/drafts', { key, body: { title: text, tweets: [{ content: text }] } });
  expect(d.status, d.text).toBe(200);
  const draftId = d.body.draft.id as string;
  const r = await t.call('POST', '/microblog/schedule', {
    key,
    body: {
      draftId,
      scheduledFor: new Date(clock.now() + inMs).toISOString(),
      applyJitter: false,
      targetAccounts: [{ accountId: ids[platform], platform }],
    },
  });
  expect(r.status, r.text).toBe(200);
  return draftId;
}

const entry = (draftId: string) =>
  t.server.sqlite
    .prepare('SELECT status, next_attempt_at AS nextAttemptAt FROM schedule_entries WHERE draft_id = ?')
    .get(draftId) as { status: string; nextAttemptAt: number | null };

/** Fires the draft's entry, and its retries, until it ends; returns the log lines it wrote. */
async function fireUntilEnded(draftId: string): Promise<string[]> {
  const before = lines.length;
  for (let i = 0; i < 5; i++) {
    const e = entry(draftId);
    if (e.status !== 'pending') break;
    clock.t = Math.max(clock.t, e.nextAttemptAt ?? clock.t + 60_000);
    await t.server.scheduler!.tick();
  }
  return lines.slice(before).filter((l) => l.includes(draftId));
}

/**
 * What a person sees: the draft's progress entry and its history row both name the status, the
 * reason and a next step; the log has a line for it. Returns what is missing (empty: not silent).
 */
async function visible(
  draftId: string,
  status: string,
  reason: RegExp,
  next: RegExp,
  logLines: string[],
): Promise<string[]> {
  const missing: string[] = [];
  const p = await t.call('GET', `/microblog/publish/progress?draftId=${draftId}`, { key });
  const pe = p.body.entries?.[0];
  if (!pe || pe.status !== status) missing.push(`progress status ${pe?.status}`);
  if (!pe || !reason.test(pe.error ?? '')) missing.push(`progress reason ${pe?.error}`);
  if (!pe || !next.test(pe.statusText ?? '')) missing.push(`progress next step: ${pe?.statusText}`);
  const h = await t.call('GET', '/publish/history?limit=500', { key });
  const row = (h.body.publications as any[] | undefined)?.find((x) => x.draftId === draftId);
  if (h.status !== 200) missing.push(`history answered ${h.status}: ${h.text}`);
  if (!row || row.status !== status) missing.push(`history status ${row?.status}`);
  if (!row || !next.test(row.statusText ?? '')) missing.push(`history next step: ${row?.statusText}`);
  if (logLines.length === 0) missing.push('no log line');
  if (logLines.length > 1 && status !== 'failed') missing.push(`${logLines.length} log lines`);
  return missing;
}

describe('every ending of a scheduled post is visible, explained and logged', () => {
  it(
    'credits short when it fires: failed with INSUFFICIENT_CREDITS, in progress and history with Retry, and ' +
      'logged',
    async () => {
      const draftId = await schedule('problog', `Never silent: credits ${clock.now()}`);
      // Spend the month's credits down to nothing before it fires.
      const { balance } = (await t.call('POST', '/credits', { key })).body;
      const warn = (await t.call('POST', '/credits', { key })).body;
      expect(warn.scheduled.posts).toBeGreaterThanOrEqual(1);
      t.server.sqlite
        .prepare(
          `INSERT INTO credit_ledger (user_id, trans_no, trans_type, credits, source_detail, created_at) VALUES (?, ?,
                    'adjustment', ?, 'test: spend it all', ?)`,
        )
        .run(
          t.server.sqlite.prepare('SELECT id FROM users LIMIT 1').pluck().get(),
          `T-drain-${clock.now()}`,
          -balance,
          new Date(clock.now()).toISOString(),
        );
      const short = (await t.call('POST', '/credits', { key })).body;
      expect(short.warning).toMatch(/^Credits for 0 more posts; \d+ scheduled/);
      const logged = await fireUntilEnded(draftId);
      const missing = await visible(draftId, 'failed', /credits/, /add credits.*Retry/, logged);
      const h = await t.call('GET', '/publish/history?status=failed&limit=500', { key });
      const row = (h.body.publications as any[]).find((x) => x.draftId === draftId);
      expect(row).toMatchObject({
        errorCode: 'INSUFFICIENT_CREDITS',
        canRetry: true,
        nextAttemptAt: null,
        platform: 'problog',
      });
      outcomes.push({ ending: 'credits short', silent: missing });
      expect(missing).toEqual([]);
      t.server.sqlite
        .prepare(
          `INSERT INTO credit_ledger (user_id, trans_no, trans_type, credits, source_detail, created_at) VALUES (?, ?,
                    'adjustment', ?, 'test: give it back', ?)`,
        )
        .run(
          t.server.sqlite.prepare('SELECT id FROM users LIMIT 1').pluck().get(),
          `T-back-${clock.now()}`,
          balance,
          new Date(clock.now()).toISOString(),
        );
    },
  );

  it('token expired and the account revoked Herald: failed, reconnect named as the next step, logged', async () => {
    const draftId = await schedule('fedblog', `Never silent: token ${clock.now()}`);
    nets.masto.faults.next({ kind: 'expired-token' }, { route: /statuses$/, times: 5 });
    const logged = await fireUntilEnded(draftId);
    nets.masto.faults.clear();
    const missing = await visible(
      draftId,
      'failed',
      /connected again|no longer accepts/,
      /connect the account again/,
      logged,
    );
    outcomes.push({ ending: 'token expired', silent: missing });
    expect(missing).toEqual([]);
  });

  it('a network failing every attempt: each attempt logged with its next one, then failed with Retry', async () => {
    const draftId = await schedule('microblog', `Never silent: 503 ${clock.now()}`);
    nets.x.faults.next({ kind: '503' }, { route: /^POST \/2\/tweets$/, times: 3 });
    // After the first attempt, while its retry is queued, history offers no Retry.
    clock.advance(60_000);
    await t.server.scheduler!.tick();
    const h = await t.call('GET', '/publish/history?limit=500', { key });
    const waiting = (h.body.publications as any[]).find((x) => x.draftId === draftId);
    expect(waiting).toMatchObject({
      status: 'failed',
      canRetry: false,
      nextAttemptAt: expect.any(String),
      statusText: expect.stringContaining('Herald tries again at'),
    });
    const logged = [...lines.filter((l) => l.includes(draftId)), ...(await fireUntilEnded(draftId))];
    nets.x.faults.clear();
    expect(logged.filter((l) => /tries again at/.test(l))).toHaveLength(2);
    const missing = await visible(
      draftId,
      'failed',
      /server problem/,
      /Not tried again automatically/,
      logged.slice(-1),
    );
    outcomes.push({ ending: 'retries exhausted', silent: missing });
    expect(missing).toEqual([]);
  });

  it('missed while Herald was closed: missed, not charged, reschedule named, logged', async () => {
    const draftId = await schedule('problog', `Never silent: missed ${clock.now()}`);
    clock.advance(3 * 3600_000);
    const logged = await fireUntilEnded(draftId);
    const missing = await visible(draftId, 'missed', /Herald was not running/, /schedule it again/, logged);
    outcomes.push({ ending: 'missed', silent: missing });
    expect(missing).toEqual([]);
  });
});
