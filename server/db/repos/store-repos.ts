/**
 * Repositories of the stored things: users and keys, accounts and connections, social sets, drafts and posts,
 * templates, media, credits, settings, idempotency keys.
 */
import type { Sqlite } from '../connection.js';
import { AccountsRepo, OAuthStatesRepo } from './accounts.repo.js';
import { AlertsRepo } from './alerts.repo.js';
import { EvergreenRepo } from './evergreen.repo.js';
import { CreditsRepo } from './credits.repo.js';
import { DraftsRepo } from './drafts.repo.js';
import { IdempotencyRepo } from './idempotency.repo.js';
import { MediaRepo } from './media.repo.js';
import { SettingsRepo } from './settings.repo.js';
import { SocialSetsRepo } from './social-sets.repo.js';
import { TemplatesRepo } from './templates.repo.js';
import type { Transactions } from './transactions.js';
import { KeysRepo, UsersRepo } from './users-keys.repo.js';

export function createStoreRepos(sqlite: Sqlite, tx: Transactions) {
  return {
    /** Transactions and change tokens, for services whose writes span several repos. */
    tx,
    users: new UsersRepo(sqlite),
    keys: new KeysRepo(sqlite),
    accounts: new AccountsRepo(sqlite),
    oauthStates: new OAuthStatesRepo(sqlite),
    socialSets: new SocialSetsRepo(sqlite),
    drafts: new DraftsRepo(sqlite),
    templates: new TemplatesRepo(sqlite),
    media: new MediaRepo(sqlite),
    credits: new CreditsRepo(sqlite),
    settings: new SettingsRepo(sqlite),
    idempotency: new IdempotencyRepo(sqlite),
    alerts: new AlertsRepo(sqlite),
    evergreen: new EvergreenRepo(sqlite),
  };
}
