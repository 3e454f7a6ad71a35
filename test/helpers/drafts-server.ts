/**
 * The server of the drafts*.test.ts files: one real server (real SQLite, the real migrations, a
 * test clock, no scheduler) signed in as the owner, the HTTP helpers those tests share, and the
 * accounts on the five networks that their "with accounts" tests use. The state is exported as
 * live bindings, set once `useDraftsServer()` has started the server.
 */
import { afterAll, beforeAll } from 'vitest';
import { drafts as draftsTable } from '../../server/db/schema.js';
import { eq } from 'drizzle-orm';
import { addAccount, userIdOf } from './drafts.js';
import { OWNER, TestClock, startServer, type TestServer } from './server.js';

export let t: TestServer;
export let key: string;
export let owner: string;
export const clock = new TestClock();
export const accountIds: Record<string, string> = {};
export let defaultSet: string;

/** Starts the server before the calling file's tests and closes it after. */
export function useDraftsServer(): void {
  beforeAll(async () => {
    t = await startServer({ scheduler: false, clock });
    key = await t.login();
    owner = userIdOf(t, OWNER.email);
  });
  afterAll(async () => {
    await t.close();
  });
}

export const post = (path: string, body: unknown, k = key) => t.call('POST', path, { key: k, body });
export const put = (path: string, body: unknown, k = key) => t.call('PUT', path, { key: k, body });
export const get = (path: string, k = key) => t.call('GET', path, { key: k });
export const del = (path: string, k = key) => t.call('DELETE', path, { key: k });
export const tick = () => clock.advance(1000);

export function setStatus(id: string, status: string) {
  t.server.db.update(draftsTable).set({ status }).where(eq(draftsTable.id, id)).run();
}

/** One account on each network for the owner, in the default set (Mastodon: a 1000-character instance). */
export function addAccountsOnEveryNetwork(): void {
  for (const p of ['microblog', 'skyblog', 'fedblog', 'threadblog', 'problog']) {
    const r = addAccount(
      t,
      owner,
      p,
      p === 'fedblog' ? { meta: { max_characters: 1000, characters_reserved_per_url: 23 } } : {},
    );
    accountIds[p] = r.accountId;
    defaultSet = r.socialSetId;
  }
}
