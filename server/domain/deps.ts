/**
 * What every service receives. Time, randomness and ids come from here so tests can pin them.
 * No database connection: services reach storage through the repos createServices gives them,
 * and transactions through `repos.tx`.
 */
import type { HeraldConfig } from '../core/config.js';
import type { Clock } from '../core/clock.js';
import type { Ids } from '../core/ids.js';
import type { Logger } from '../core/logger.js';
import type { ManagedSecretStore } from '../secrets/index.js';
import type { PlatformRegistry } from '../platforms/registry.js';

export interface Deps {
  config: HeraldConfig;
  clock: Clock;
  ids: Ids;
  /** Uniform in [0, 1); used for jitter and backoff. */
  random: () => number;
  log: Logger;
  /** The store in force, replaceable while running (the first-run wizard's choice). */
  secrets: ManagedSecretStore;
  /** The network adapters, built by the composition root; services reach every network through it. */
  platforms: PlatformRegistry;
  /** Facts known only once the server listens. */
  runtime: { baseUrl: string };
}
