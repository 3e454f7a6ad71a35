/**
 * Picks the adapter for a network. The composition root (server.ts) builds one registry from
 * `allAdapters()` and passes it in `Deps.platforms`; services ask it for a network's adapter and
 * its optional capabilities, never import an adapter by name. Nothing registers by import side
 * effect: each server (and each test's server) holds its own registry.
 */
import type { Platform } from '../core/config.js';
import type { PlatformAdapter } from './adapter.js';
import { NETWORK_NAMES, PlatformError } from './errors.js';

export interface PlatformRegistry {
  /** The network's adapter; a permanent PlatformError when this build of Herald has none. */
  get(platform: Platform): PlatformAdapter;
  /** Puts `adapter` in place of its network's current one (tests: the same adapters with short polling waits). */
  register(adapter: PlatformAdapter): void;
}

export function createPlatformRegistry(adapters: readonly PlatformAdapter[]): PlatformRegistry {
  const byPlatform = new Map<Platform, PlatformAdapter>(adapters.map((a) => [a.platform, a]));
  return {
    get(platform) {
      const adapter = byPlatform.get(platform);
      if (!adapter)
        throw new PlatformError(
          platform,
          'permanent',
          `Publishing to ${NETWORK_NAMES[platform]} is not available in this build of Herald`,
        );
      return adapter;
    },
    register(adapter) {
      byPlatform.set(adapter.platform, adapter);
    },
  };
}
