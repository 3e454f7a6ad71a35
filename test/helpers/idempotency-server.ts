/**
 * The world of the idempotency*.test.ts files: the Mastodon simulator and one Herald (real SQLite
 * file, real HTTP on loopback, an injected clock) signed in as the owner, with a Mastodon account
 * connected, and the helpers those tests share. `useIdempotencyServer()` starts it before a
 * file's tests and stops it after (running `cleanup` first); the state is exported as live
 * bindings, set once it has started.
 */
import { afterAll, beforeAll, expect } from 'vitest';
import { connectOAuth } from './oauth-connect.js';
import { startServer, TestClock, type TestServer } from './server.js';
import { startMastodonSimulator, type MastodonSimulator } from '../simulators/mastodon.simulator.js';

export let masto: MastodonSimulator;
export let t: TestServer;
export let key: string;
export let accountId: string;
export const clock = new TestClock(Date.now());
/** Run after the file's tests, last added first, before the server and the simulator stop. */
export const cleanup: (() => Promise<void> | void)[] = [];

export const statusPosts = () => masto.requests.filter((r) => r.startsWith('POST /api/v1/statuses')).length;
export const draftBody = (text: string) => ({ title: text, tweets: [{ content: text, position: 0 }] });
export const idem = (k: string) => ({ 'Idempotency-Key': k });

/** Starts the simulator and Herald before the calling file's tests; stops them after. */
export function useIdempotencyServer(): void {
  beforeAll(async () => {
    masto = await startMastodonSimulator();
    t = await startServer({ clock });
    key = await t.login();
    const r = await connectOAuth(t, key, 'fedblog', { instanceUrl: masto.url });
    expect(r.status).toBe(200);
    accountId = r.body.accountUuid as string;
  }, 60_000);

  afterAll(async () => {
    for (const c of cleanup.reverse()) await c();
    await t?.close();
    await masto?.close();
  });
}
