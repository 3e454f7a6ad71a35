/** Repositories of the stored things: users and keys, accounts and connections, social sets, drafts and posts, templates, media, credits, settings. */
import type { Db, Sqlite } from '../connection.js';

export function createStoreRepos(_sqlite: Sqlite, _db: Db) {
  return {};
}
