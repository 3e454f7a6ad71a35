/**
 * The world of the Bluesky peer tests: a real PDS (with a local PLC) holding alice and bob, and
 * Herald with its HTTP API; helpers connect an account with an app password and publish through
 * Herald's own services (withCredentials → the adapter). Each test file that calls
 * useSkyblogWorld() gets its own PDS and server.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll } from 'vitest';
import { accounts } from '../../server/db/schema.js';
import type { PostInput } from '../../server/platforms/adapter.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { startPds, type PdsAccount, type PdsPeer } from './pds.js';

export let pds: PdsPeer;
export let t: TestServer;
export let key: string;
export let alice: PdsAccount;
export let bob: PdsAccount;

export const adapter = () => t.server.deps.platforms.get('skyblog');
export const rowOf = (id: string) => t.server.db.select().from(accounts).where(eq(accounts.id, id)).get()!;
export const post = (text: string, extra: Partial<PostInput> = {}): PostInput => ({
  text,
  media: [],
  options: {},
  idempotencyKey: `k-${text}`,
  ...extra,
});
export const publish = (id: string, input: PostInput) =>
  t.server.services.credentials.withCredentials(rowOf(id), (ctx) => adapter().publishPost(ctx, input));

export async function connect(account: PdsAccount, service = pds.url) {
  return t.call('POST', '/skyblog/auth', {
    key,
    body: { identifier: account.handle, appPassword: account.appPassword, service },
  });
}

export function useSkyblogWorld(): void {
  beforeAll(async () => {
    pds = await startPds();
    // Shown in the run's output: how long a real PDS takes to come up here.
    console.log(`PDS and PLC up in ${pds.startMs} ms at ${pds.url}`);
    t = await startServer();
    key = await t.login();
    alice = await pds.createAccount('alice');
    bob = await pds.createAccount('bob');
  });

  afterAll(async () => {
    await t?.close();
    await pds?.close();
  });
}
