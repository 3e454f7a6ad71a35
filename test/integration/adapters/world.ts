/**
 * What the adapter contract suite (test/integration/adapter-contract.test.ts) knows of a network:
 * how to start its simulator and point Herald at it, and the few questions the shared tests ask
 * of what the network kept. Each network answers them in its own file beside this one, which also
 * holds the tests only that network needs.
 */
import type { AccountRow } from '../../../server/db/repos/accounts.repo.js';
import type { Credentials, MediaItem, PlatformAdapter, PostInput, PostRef } from '../../../server/platforms/adapter.js';
import { publishThread } from '../../../server/platforms/thread.js';
import type { ConnectResult } from '../../helpers/oauth-connect.js';
import fs from 'node:fs';
import { expect } from 'vitest';
import { startServer, tempDir, type TestServer } from '../../helpers/server.js';

/** What a network kept of one post. */
export interface Kept {
  id: string;
  text: string;
  /** The id of the post it answers, where the network threads by replies. */
  replyTo?: string | null;
}

export interface Network<S = any> {
  /** Shown in the test names. */
  name: string;
  platform: PlatformAdapter['platform'];
  /** Starts the simulator (and anything it fetches from); `settings` point Herald at it. */
  start(): Promise<{ sim: S; settings?: Record<string, string>; close(): Promise<void> }>;
  /** The adapter under test (some with short waits), registered in place of the server's own. */
  adapter(): PlatformAdapter;
  /** The body of POST /<platform>/auth. */
  authBody?(sim: S): Record<string, unknown>;
  /** The network's checks of a fresh connection, after the shared ones. */
  connected(w: World<S>, result: ConnectResult): void | Promise<void>;
  /** Token requests the network has answered (the authorization-code exchange). */
  tokenCalls(sim: S): number;
  /** The network's copies of the posts it holds, oldest first. */
  posts(sim: S): Kept[];
  /** The public URL the adapter must answer for a post. */
  urlOf(w: World<S>, ref: PostRef): string;
  /** `chain`: each part answers the one before; `comments`: the later parts are comments on the first. */
  threads: 'chain' | 'comments';
  /** The network's comments, oldest first, each `replyTo` the post it is on (`threads: 'comments'`). */
  comments?(sim: S): Kept[];
  /** Makes the next comment request commit and then drop the connection. */
  failDropComment?(sim: S): void;
  /** The `i`-th (0 or 1) of two pictures this network can take, with its alt text. */
  image(w: World<S>, i: number, altText: string): MediaItem;
  /** The alt texts the network kept for a post's media, in order. */
  altTexts(sim: S, ref: PostRef): (string | null | undefined)[];
  /** Makes the next post answer 429; the returned check takes the error's resetAt (see resetIn). */
  fail429(sim: S): (resetAt: number) => void;
  /** Makes the next `times` post requests commit and then drop the connection. */
  failDrop(sim: S, times: number): void;
  /** Sends a post again with its idempotency key, so a lost answer costs two drops, not one. */
  resendsWithKey?: boolean;
  /** Where the network refreshes tokens: makes the stored one need it now. */
  refresh?: {
    expire(w: World<S>): Promise<void>;
    count(sim: S): number;
    /** The network's checks of the credentials before and after the refresh. */
    check?(before: Credentials, after: Credentials): void;
  };
  /** Makes the network refuse the account's token for good (revoked, or refresh refused). */
  refuseTokens(sim: S): void;
  /** Tests only this network needs, run after the shared ones against the same world. */
  own?(w: () => World<S>): void;
}

export interface World<S = any> {
  sim: S;
  t: TestServer;
  /** A folder for media files, removed with the world. */
  mediaDir: string;
  key: string;
  userId: string;
  accountId: string;
  adapter(): PlatformAdapter;
  row(): AccountRow;
  post(text: string, more?: Partial<PostInput>): PostInput;
  publish(input: PostInput): Promise<PostRef>;
  thread(parts: PostInput[], done?: PostRef[]): Promise<PostRef[]>;
  find(q: { text: string; replyTo?: PostRef; since: number; idempotencyKey: string }): Promise<PostRef | null>;
  close(): Promise<void>;
}

const noHooks = { beforeSend: () => {}, afterSend: () => {} };

export async function startWorld<S>(net: Network<S>): Promise<World<S>> {
  const started = await net.start();
  const t = await startServer({ settings: started.settings ?? {} });
  t.server.deps.platforms.register(net.adapter());
  const key = await t.login();
  const me = await t.call('GET', '/me', { key });
  let n = 0;
  const w: World<S> = {
    sim: started.sim,
    t,
    mediaDir: tempDir(`herald-${net.platform}-media-`),
    key,
    userId: me.body.uuid,
    accountId: '',
    adapter: () => t.server.deps.platforms.get(net.platform),
    row: () => t.server.services.accounts.row(w.userId, w.accountId),
    post: (text, more = {}) => ({ text, media: [], options: {}, idempotencyKey: `k-${++n}-${text}`, ...more }),
    publish: (input) =>
      t.server.services.credentials.withCredentials(w.row(), (ctx) => w.adapter().publishPost(ctx, input)),
    thread: (parts, done = []) =>
      t.server.services.credentials.withCredentials(w.row(), (ctx) =>
        publishThread(w.adapter(), ctx, parts, done, noHooks),
      ),
    find: (q) => t.server.services.credentials.withCredentials(w.row(), (ctx) => w.adapter().findRecentPost(ctx, q)),
    close: async () => {
      await t.close();
      await started.close();
      fs.rmSync(w.mediaDir, { recursive: true, force: true });
    },
  };
  return w;
}

/** A GIF of `bytes` written to the world's media folder, as a post's media item. */
export function gifMedia(w: World, bytes: Buffer, altText: string): MediaItem {
  const file = `${w.mediaDir}/dot.gif`;
  fs.writeFileSync(file, bytes);
  return { path: file, mime: 'image/gif', size: bytes.length, kind: 'gif', width: 1, height: 1, altText };
}

/** The network's copy of a post, by its id. */
export const keptOf = <S>(net: Network<S>, sim: S, id: string) => net.posts(sim).find((p) => p.id === id);

/**
 * The check of a reset the network announces `seconds` ahead (to the second): call it before the
 * 429 is armed, and the check it returns with the error's resetAt.
 */
export function resetIn(seconds: number): (resetAt: number) => void {
  const before = Math.floor(Date.now() / 1000) + seconds;
  return (resetAt) => {
    expect(resetAt % 1000).toBe(0);
    expect(resetAt / 1000).toBeGreaterThanOrEqual(before);
    expect(resetAt / 1000).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + seconds);
  };
}
