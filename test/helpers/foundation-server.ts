/**
 * The server of the foundation-resources and foundation-sets-accounts tests: one real server (real
 * SQLite, the real migrations, a test clock, no scheduler) signed in as the owner, and the HTTP
 * helpers they share. The state is exported as live bindings, set once `useFoundationServer()`
 * has started the server.
 */
import { afterAll, beforeAll } from 'vitest';
import { ownerId } from './fixtures.js';
import { TestClock, startServer, type TestServer } from './server.js';

export const clock = new TestClock();
export let t: TestServer;
export let key: string;
export let owner: string;

/** Starts the server before the calling file's tests and closes it after. */
export function useFoundationServer(): void {
  beforeAll(async () => {
    t = await startServer({ clock, scheduler: false });
    key = await t.login();
    owner = ownerId(t);
  });
  afterAll(async () => {
    await t.close();
  });
}

export const get = (p: string) => t.call('GET', p, { key });
export const post = (p: string, body?: unknown) => t.call('POST', p, { key, body });
export const put = (p: string, body: unknown) => t.call('PUT', p, { key, body });
export const del = (p: string, body?: unknown) => t.call('DELETE', p, { key, body });
