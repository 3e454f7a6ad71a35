/**
 * Shared pieces of the whole-process scheduler and crash tests: a Herald child with its five
 * connected accounts, drafts and schedules over HTTP, read-only looks at its SQLite file, and
 * what each network holds, counted per text.
 */
import Database from 'better-sqlite3';
import path from 'node:path';
import type { Platform } from '../../server/core/config.js';
import { startChild, type ChildOptions, type ChildServer } from '../helpers/child-server.js';
import { connectAll, PLATFORMS, postsOn, type Networks } from '../helpers/networks.js';

export { PLATFORMS };

/**
 * Settings every child in these tests shares: simulators, credits for hundreds of posts, a 1 s
 * sweep. These tests are about Herald firing posts itself (under libfaketime's moved clocks, kills
 * and restarts), so the Mastodon hand-off is off: the simulated instance keeps the real clock, and
 * a post handed to it would be published by the instance, not fired by Herald
 * (test/integration/hand-off.test.ts covers the hand-off with one shared clock).
 */
export function childEnv(
  nets: Networks,
  extra: Record<string, string | undefined> = {},
): Record<string, string | undefined> {
  return {
    ...nets.settings,
    HERALD_MONTHLY_CREDITS: '100000',
    HERALD_SWEEP_SECONDS: '1',
    HERALD_FEDBLOG_HAND_OFF: '0',
    ...extra,
  };
}

export interface Connected {
  child: ChildServer;
  key: string;
  ids: Record<Platform, string>;
}

/** Starts a child on a fresh folder, signs in and connects one account per network over HTTP. */
export async function startConnected(nets: Networks, opts: ChildOptions): Promise<Connected> {
  const child = await startChild(opts);
  const key = await child.login();
  const ids = (await connectAll(child, key, nets)) as Record<Platform, string>;
  return { child, key, ids };
}

/** Creates drafts (one per entry of `posts`, each a list of post texts) in batches of 100; returns their ids. */
export async function createDrafts(child: ChildServer, key: string, posts: string[][]): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < posts.length; i += 100) {
    const r = await child.call('POST', '/microblog/drafts/batch', {
      key,
      body: {
        drafts: posts
          .slice(i, i + 100)
          .map((texts) => ({ title: texts[0].slice(0, 60), tweets: texts.map((content) => ({ content })) })),
      },
    });
    if (r.status !== 200) throw new Error(`creating drafts answered ${r.status}: ${r.text}`);
    ids.push(...r.body.drafts.map((d: { id: string }) => d.id));
  }
  return ids;
}

export async function schedule(child: ChildServer, key: string, body: Record<string, unknown>): Promise<any> {
  const r = await child.call('POST', '/microblog/schedule', { key, body });
  if (r.status !== 200) throw new Error(`scheduling answered ${r.status}: ${r.text}`);
  return r.body;
}

/** The child's clock, from its Date header (whole seconds; it may run under libfaketime). */
export async function childNow(child: ChildServer): Promise<number> {
  const r = await child.call('GET', '/me'); // 401 without a key, but dated
  const date = r.headers.get('date');
  if (!date) throw new Error('no Date header');
  return Date.parse(date);
}

/** A read-only look at a child's database (WAL: safe beside the running server). */
export function readDb<T>(dataDir: string, fn: (db: Database.Database) => T): T {
  const db = new Database(path.join(dataDir, 'herald.db'), { readonly: true, fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    return fn(db);
  } finally {
    db.close();
  }
}

export function entryCounts(dataDir: string): Record<string, number> {
  return readDb(dataDir, (db) =>
    Object.fromEntries(
      (
        db.prepare('SELECT status, COUNT(*) AS n FROM schedule_entries GROUP BY status').all() as {
          status: string;
          n: number;
        }[]
      ).map((r) => [r.status, r.n]),
    ),
  );
}

export async function until<T>(
  what: string,
  fn: () => T | undefined | false | Promise<T | undefined | false>,
  ms = 60_000,
  every = 100,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, every));
  }
}

/** How often each text is on each network (read from the simulators and the PDS, never from Herald). */
export async function networkCounts(nets: Networks): Promise<Record<Platform, Map<string, number>>> {
  const out = {} as Record<Platform, Map<string, number>>;
  for (const p of PLATFORMS) {
    const m = new Map<string, number>();
    for (const post of await postsOn(nets, p)) m.set(post.text, (m.get(post.text) ?? 0) + 1);
    out[p] = m;
  }
  return out;
}

/** Posts on the networks, by text, in the order each network received them. */
export async function networkOrder(nets: Networks, p: Platform): Promise<string[]> {
  return (await postsOn(nets, p)).map((post) => post.text);
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}
