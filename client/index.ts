/**
 * The Herald client library: `HeraldClient` (every endpoint of /api/v1), `HeraldError`, and the
 * shared text rules. Types come from the server's zod contracts; nothing here needs Node.
 */
import type { z } from 'zod';
import type { accountSchema } from '../server/contracts/accounts.js';
import type { draftListItem, draftSchema, draftStatus, tweetSchema } from '../server/contracts/drafts.js';
import type { progressEntry } from '../server/contracts/publishing.js';
import type { scheduleEntry } from '../server/contracts/schedule.js';
import type { socialSetSchema } from '../server/contracts/social-sets.js';
import type { templateSchema } from '../server/contracts/templates.js';
import type { meResponse } from '../server/contracts/users.js';

export {
  HeraldClient,
  HeraldError,
  DEFAULT_BASE_URL,
  newIdempotencyKey,
  parseEventStream,
  type ClientOptions,
  type HeraldEvent,
  type OAuthNetwork,
  type WriteOptions,
} from './herald-client.js';
export * as text from '../text/index.js';

export type DraftStatus = z.output<typeof draftStatus>;
/**
 * A publication's status (History's filter); progress entries may also be `handed_off` (a post the network publishes
 * itself).
 */
export type PublicationStatus = Exclude<ProgressEntry['status'], 'handed_off'>;
export type Draft = z.output<typeof draftSchema>;
export type DraftListItem = z.output<typeof draftListItem>;
export type Post = z.output<typeof tweetSchema>;
export type Account = z.output<typeof accountSchema>;
export type SocialSet = z.output<typeof socialSetSchema>;
export type Template = z.output<typeof templateSchema>;
export type Me = z.output<typeof meResponse>;
export type ScheduleEntry = z.output<typeof scheduleEntry>;
export type ProgressEntry = z.output<typeof progressEntry>;
