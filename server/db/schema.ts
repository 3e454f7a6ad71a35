/**
 * The whole SQLite schema (drizzle), one module per area under schema/. Every row that belongs to
 * someone carries `user_id`, and every repo query filters by it: users never see each other's data.
 *
 * Timestamps are ISO 8601 strings from `Date#toISOString()` (fixed width, so they sort as text),
 * except scheduler times, which are integer milliseconds because the queue is ordered and
 * range-scanned by them.
 *
 * This file stays the one entry point: repos import their tables from here, and drizzle-kit
 * (drizzle.config.ts) reads every table through these re-exports.
 */
export { accounts, apiKeys, socialSetAccounts, socialSets, users } from './schema/users.js';
export { drafts, media, platformContents, templates, tweets } from './schema/content.js';
export { networkWithdrawals, postUsage, publicationParts, publications, scheduleEntries } from './schema/publishing.js';
export { creditLedger, events, idempotencyKeys, oauthStates } from './schema/records.js';
export { metricTracks, postMetrics } from './schema/metrics.js';
export { alertDeliveries, alertNotices, alerts } from './schema/alerts.js';
export { evergreenDrafts, evergreenFills } from './schema/evergreen.js';
