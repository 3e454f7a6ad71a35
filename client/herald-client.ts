/**
 * The typed Herald client: every endpoint of /api/v1 over fetch, with types inferred from the
 * server's zod contracts. No Node-only imports: the UI, the CLI, tests and users' scripts all
 * use it. Errors are `HeraldError` with the API's `code`, the HTTP `status` and `message`.
 *
 * The methods live in one module per area (accounts, drafts, publishing), each a class over
 * ClientCore; HeraldClient copies them onto its own prototype, so it is still one class with every
 * method its own, as before the split (callers and `Object.getOwnPropertyNames` see no change).
 */
import { AccountsMethods } from './accounts.methods.js';
import { AfterPublishMethods } from './after-publish.methods.js';
import { ClientCore } from './client-core.js';
import { DraftsMethods } from './drafts.methods.js';
import { PublishingMethods } from './publishing.methods.js';
import { UpkeepMethods } from './upkeep.methods.js';

export {
  DEFAULT_BASE_URL,
  HeraldError,
  newIdempotencyKey,
  type ClientOptions,
  type NetworkAppPlatform,
  type OAuthNetwork,
  type WriteOptions,
} from './client-core.js';
export { parseEventStream, type HeraldEvent } from './event-stream.js';

/** Merged with the class below: its type carries every area's methods, which the loop puts on it. */
export interface HeraldClient
  extends AccountsMethods, DraftsMethods, PublishingMethods, AfterPublishMethods, UpkeepMethods {}

/** The typed Herald client: every endpoint of /api/v1 (see the area classes for each method). */
export class HeraldClient extends ClientCore {}

// `request` too, so the prototype's own methods are the same list as when this was one class.
for (const area of [
  ClientCore,
  AccountsMethods,
  DraftsMethods,
  PublishingMethods,
  AfterPublishMethods,
  UpkeepMethods,
]) {
  for (const name of Object.getOwnPropertyNames(area.prototype)) {
    if (name === 'constructor') continue;
    Object.defineProperty(HeraldClient.prototype, name, Object.getOwnPropertyDescriptor(area.prototype, name)!);
  }
}
