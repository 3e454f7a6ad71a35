/** Picks the adapter for a network. Each adapter file registers itself in ADAPTERS below. */
import type { Platform } from '../core/config.js';
import type { PlatformAdapter } from './adapter.js';
import { NETWORK_NAMES, PlatformError } from './errors.js';

const ADAPTERS: Partial<Record<Platform, PlatformAdapter>> = {};

export function registerAdapter(adapter: PlatformAdapter): void {
  ADAPTERS[adapter.platform] = adapter;
}

export function adapterFor(platform: Platform): PlatformAdapter {
  const adapter = ADAPTERS[platform];
  if (!adapter) throw new PlatformError(platform, 'permanent', `Publishing to ${NETWORK_NAMES[platform]} is not available in this build of Herald`);
  return adapter;
}
