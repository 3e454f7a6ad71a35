/**
 * Test setup that writes rows directly (accounts that no network connected, drafts without the
 * drafts API). Setup only: every behaviour under test still runs through the real services.
 */
import { accounts, drafts, tweets } from '../../server/db/schema.js';
import type { TestServer } from './server.js';

export function ownerId(t: TestServer, email = 'owner@example.test'): string {
  return t.server.services.users.byEmail(email)!.id;
}

export function insertAccount(t: TestServer, userId: string, platform: string, username = `${platform}-user`): string {
  const id = t.server.deps.ids.uuid();
  t.server.db
    .insert(accounts)
    .values({
      id,
      userId,
      platform,
      platformUserId: `${platform}-${id.slice(0, 8)}`,
      username,
      createdAt: new Date().toISOString(),
    })
    .run();
  t.server.services.socialSets.attachAccount(userId, id, { handle: username });
  return id;
}

export function insertDraft(
  t: TestServer,
  userId: string,
  texts: string[],
  opts: { title?: string; socialSetId?: string | null } = {},
): string {
  const id = t.server.deps.ids.uuid();
  const now = new Date(t.server.deps.clock.now()).toISOString();
  const setId =
    opts.socialSetId === undefined ? (t.server.services.socialSets.defaultSet(userId)?.id ?? null) : opts.socialSetId;
  t.server.db
    .insert(drafts)
    .values({ id, userId, title: opts.title ?? 'A draft', socialSetId: setId, createdAt: now, updatedAt: now })
    .run();
  texts.forEach((text, position) => {
    t.server.db
      .insert(tweets)
      .values({ id: t.server.deps.ids.uuid(), draftId: id, position, content: `<p>${text}</p>`, plainText: text })
      .run();
  });
  return id;
}
