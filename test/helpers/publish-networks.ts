/**
 * The world of the publish-networks*.test.ts files: the X, Mastodon, Threads and LinkedIn
 * simulators and a real Bluesky PDS (behind a fault proxy), one Herald server with an account on
 * each, and the helpers those tests share. `usePublishNetworks()` starts it before a file's tests
 * and stops it after; the state is exported as live bindings, set once it has started.
 */
import { afterAll, beforeAll, expect } from 'vitest';
import type { Platform } from '../../server/core/config.js';
import { ownerId } from './fixtures.js';
import { connectAll, PLATFORMS, postsOn, startNetworks, threadOf, useFastPolling, type Networks } from './networks.js';
import { startServer, type TestServer } from './server.js';

export let nets: Networks;
export let t: TestServer;
export let key: string;
export let ids: Record<Platform, string>;
export let userId: string;

/** How many texts() calls so far: makes each test's texts its own. */
export let n = 0;
/** Texts no earlier test used (networks are shared by the whole file). */
export const texts = (label: string, count = 3) => {
  n += 1;
  return Array.from({ length: count }, (_, i) => `${label} #${n} part ${i + 1}/${count}`);
};

export async function createDraft(posts: string[], extra: Record<string, unknown> = {}): Promise<string> {
  const r = await t.call('POST', '/microblog/drafts', {
    key,
    body: { title: posts[0].slice(0, 40), tweets: posts.map((content) => ({ content })), ...extra },
  });
  expect(r.status, r.text).toBe(200);
  return r.body.draft.id as string;
}

export const balance = async () => (await t.call('POST', '/credits', { key })).body.balance as number;
export const progress = async (q: string) => {
  const r = await t.call('GET', `/microblog/publish/progress?${q}`, { key });
  expect(r.status, r.text).toBe(200);
  return r.body as { entries: any[]; summary: { total: number; completed: number; failed: number; pending: number } };
};
export const publish = (draftId: string, platforms: Platform[]) =>
  t.call('POST', '/publish/multi-platform', {
    key,
    body: { draftId, targetAccounts: platforms.map((p) => ({ accountId: ids[p], platform: p })) },
  });
export const draftStatus = async (id: string) =>
  (await t.call('GET', `/microblog/drafts/${id}`, { key })).body.draft.status as string;
export const ledgerSince = async (before: number) => {
  const r = await t.call('GET', '/credits/usage?limit=100', { key });
  return (r.body.records as any[]).filter((x) => x.id > before);
};
export const lastLedgerId = async () =>
  ((await t.call('GET', '/credits/usage?limit=1', { key })).body.records[0]?.id ?? 0) as number;

export { until } from './until.js';

/**
 * Each thread network holds `posts` once each, as one reply chain; LinkedIn holds the first as a
 * post and the others as its comments, in order.
 */
export async function expectThreadEverywhere(posts: string[], platforms: Platform[] = PLATFORMS) {
  for (const platform of platforms) {
    const held = await postsOn(nets, platform);
    const chain = threadOf(held, posts);
    expect(chain[0].parent, platform).toBeUndefined();
    for (let i = 1; i < chain.length; i++) {
      const parent = platform === 'problog' ? chain[0].id : chain[i - 1].id;
      expect(chain[i].parent, `${platform} part ${i + 1}`).toBe(parent);
      expect(held.indexOf(chain[i]), `${platform} part ${i + 1} after part ${i}`).toBeGreaterThan(
        held.indexOf(chain[i - 1]),
      );
    }
  }
}

export function noDuplicates() {
  expect(nets.x.state.counter.duplicates()).toEqual([]);
  expect(nets.masto.state.counter.duplicates()).toEqual([]);
  expect(nets.threads.state.counter.duplicates()).toEqual([]);
  expect(nets.li.state.counter.duplicates()).toEqual([]);
}

/** Starts the networks and Herald before the calling file's tests; stops them after. */
export function usePublishNetworks(): void {
  beforeAll(async () => {
    nets = await startNetworks({ pds: true });
    t = await startServer({ settings: nets.settings });
    useFastPolling(t);
    key = await t.login();
    userId = ownerId(t);
    ids = (await connectAll(t, key, nets)) as Record<Platform, string>;
  }, 120_000);

  afterAll(async () => {
    await t?.close();
    await nets?.close();
  });
}
