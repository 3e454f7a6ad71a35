/**
 * The server of the client-library tests: one real server (test clock, no scheduler) signed in as
 * the owner, and a fetch for HeraldClient that records every request that went over the wire with
 * its answer's status and error code. The state is exported as live bindings, set once
 * `useClientLibraryServer()` has started the server.
 */
import { afterAll, beforeAll } from 'vitest';
import { startServer, TestClock, type TestServer } from './server.js';

export const clock = new TestClock();
export let t: TestServer;
export let key: string;

export interface Call {
  method: string;
  path: string;
  status: number;
  error?: string;
  message?: string;
}
export const calls: Call[] = [];

/** fetch that records what went over the wire (the client's own injection point); the server is real. */
export const recording =
  (onResponse?: (res: Response) => void): typeof fetch =>
  async (input, init) => {
    const res = await fetch(input, init);
    const url = new URL(String(input));
    const call: Call = {
      method: (init?.method ?? 'GET').toUpperCase(),
      path: url.pathname.replace(/^\/api\/v1/, ''),
      status: res.status,
    };
    if (!res.ok) {
      const body = await res
        .clone()
        .json()
        .catch(() => ({}));
      call.error = body.error;
      call.message = body.message;
    }
    calls.push(call);
    onResponse?.(res);
    return res;
  };

/** Starts the server before the calling file's tests and closes it after. */
export function useClientLibraryServer(): void {
  beforeAll(async () => {
    t = await startServer({ clock, scheduler: false });
    key = await t.login();
  });
  afterAll(async () => {
    await t?.close();
  });
}
