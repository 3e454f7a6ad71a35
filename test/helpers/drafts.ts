/**
 * Test setup for drafts: accounts cannot be connected over HTTP in these tests, so rows are
 * written with the real drizzle db and attached through the real social-sets service.
 */
import { accounts, media } from '../../server/db/schema.js';
import type { TestServer } from './server.js';

export function userIdOf(t: TestServer, email: string): string {
  const row = t.server.sqlite.prepare('SELECT id FROM users WHERE email = ?').get(email) as { id: string } | undefined;
  if (!row) throw new Error(`no user ${email}`);
  return row.id;
}

let n = 0;

/** Inserts an account row and attaches it to a set (the default set, created if missing). */
export function addAccount(
  t: TestServer,
  userId: string,
  platform: string,
  opts: { meta?: Record<string, unknown>; socialSetId?: string; mode?: 'create_new' } = {},
): { accountId: string; socialSetId: string } {
  n += 1;
  const accountId = `acc-${platform}-${n}-${Math.random().toString(36).slice(2, 8)}`;
  const username = `${platform}user${n}`;
  t.server.db
    .insert(accounts)
    .values({
      id: accountId,
      userId,
      platform,
      platformUserId: `pu${n}`,
      username,
      meta: JSON.stringify(opts.meta ?? {}),
      createdAt: new Date().toISOString(),
    })
    .run();
  const socialSetId = t.server.services.socialSets.attachAccount(userId, accountId, {
    handle: username,
    socialSetId: opts.socialSetId,
    mode: opts.mode,
  });
  return { accountId, socialSetId };
}

/** Inserts a media row (what an upload leaves behind) for a user. */
export function addMedia(t: TestServer, userId: string, type: 'image' | 'gif' | 'video'): string {
  n += 1;
  const id = `media${n}${Math.random().toString(36).slice(2, 10)}`;
  const mime = type === 'video' ? 'video/mp4' : type === 'gif' ? 'image/gif' : 'image/png';
  t.server.db
    .insert(media)
    .values({ id, userId, fileName: `${id}.bin`, type, mime, size: 100, createdAt: new Date().toISOString() })
    .run();
  return id;
}
