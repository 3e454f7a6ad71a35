/**
 * Shared by the scheduler bench (bench/scheduler.bench.ts): its sizes, the accounts it connects
 * on the simulators, drafts made in batches, a read-only look at Herald's database, the posts
 * counted at the networks, and the scheduler's start-up line.
 */
import Database from 'better-sqlite3';
import path from 'node:path';
import type { TestServer } from '../../test/helpers/server.js';
import { connectOAuth } from '../../test/helpers/oauth-connect.js';
import type { HeraldChild } from '../lib.js';
import type { Simulators } from '../networks.js';

export const ENTRIES = Number(process.env.BENCH_SCHED_ENTRIES ?? 10_000);
export const WINDOW_MS = 60_000;
export const PER_NETWORK = 10;
export const NETWORKS = ['microblog', 'fedblog', 'threadblog', 'problog'] as const;
export type Net = (typeof NETWORKS)[number];
export const PENDING = Number(process.env.BENCH_SCHED_PENDING ?? 100_000);
export const SAME_SECOND = 1_000;

/** Connections the 100k scheduling requests are spread over, as a script scheduling a backlog would. */
export const CONNECTIONS = Number(process.env.BENCH_SCHED_CONNECTIONS ?? 8);

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Connects PER_NETWORK accounts on each simulator through Herald's OAuth flows. */
export async function connectMany(h: HeraldChild, sims: Simulators): Promise<Record<Net, string[]>> {
  const t = { call: h.call } as unknown as Pick<TestServer, 'call'>;
  const out = { microblog: [], fedblog: [], threadblog: [], problog: [] } as Record<Net, string[]>;
  for (let i = 0; i < PER_NETWORK; i++) {
    const name = `bench${i}`;
    sims.x.addUser({ username: name, name });
    sims.x.setCurrentUser(name);
    sims.masto.addAccount({ username: name });
    sims.masto.setCurrentUser(name);
    sims.threads.addUser({ username: name });
    sims.threads.setCurrentUser(name);
    sims.li.addMember({ name: `Bench Member ${i}` });
    sims.li.setCurrentUser(`Bench Member ${i}`);
    const bodies: Record<Net, Record<string, string>> = {
      microblog: {},
      fedblog: { instanceUrl: sims.masto.url },
      threadblog: {},
      problog: {},
    };
    for (const net of NETWORKS) {
      const r = await connectOAuth(t, h.key, net, bodies[net]);
      if (r.status !== 200) throw new Error(`connecting ${net} answered ${r.status}: ${JSON.stringify(r.body)}`);
      out[net].push(r.body.accountUuid as string);
    }
  }
  return out;
}

/** The server's clock is this machine's: both processes read the same wall clock. */
export async function createDrafts(h: HeraldChild, count: number, label: string): Promise<string[]> {
  const ids: string[] = [];
  for (let b = 0; b < count; b += 100) {
    const n = Math.min(100, count - b);
    const r = await h.ok('POST', '/microblog/drafts/batch', {
      drafts: Array.from({ length: n }, (_, i) => ({
        title: `${label} ${b + i}`,
        tweets: [{ content: `${label} ${b + i}: scheduled by the bench` }],
      })),
    });
    ids.push(...r.drafts.map((d: { id: string }) => d.id));
  }
  return ids;
}

export function db(h: HeraldChild): Database.Database {
  const d = new Database(path.join(h.dataDir, 'herald.db'), { readonly: true, fileMustExist: true });
  d.pragma('busy_timeout = 5000');
  return d;
}

export function countAtNetworks(sims: Simulators, prefix: string): { posts: number; duplicates: number } {
  let posts = 0;
  let duplicates = 0;
  for (const s of [sims.x, sims.masto, sims.threads, sims.li]) {
    const list = 'statuses' in s.state ? s.state.statuses : s.state.posts;
    const seen = new Map<string, number>();
    for (const p of list as {
      text?: string;
      commentary?: string;
      keptCommentary?: string;
      authorId?: string;
      accountId?: string;
      userId?: string;
      author?: string;
    }[]) {
      const text = p.text ?? p.keptCommentary ?? p.commentary ?? '';
      if (!text.startsWith(prefix)) continue;
      posts += 1;
      const k = `${p.authorId ?? p.accountId ?? p.userId ?? p.author}\u0000${text}`;
      seen.set(k, (seen.get(k) ?? 0) + 1);
    }
    for (const n of seen.values()) if (n > 1) duplicates += n - 1;
  }
  return { posts, duplicates };
}

/** The scheduler's start-up line: entries pending, and how long arming its wake-up from the database took. */
export async function armed(h: HeraldChild): Promise<{ pending: number; ms: number }> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const m = /Scheduler: ([\d,]+) pending, next wake-up \S+ \(armed in ([\d.]+) ms\)/.exec(h.output());
    if (m) return { pending: Number(m[1].replaceAll(',', '')), ms: Number(m[2]) };
    if (Date.now() > deadline) throw new Error(`no scheduler start-up line in: ${h.output().slice(-300)}`);
    await sleep(20);
  }
}
