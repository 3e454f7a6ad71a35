/** Every network adapter this build of Herald ships, for the composition root's registry. */
import type { PlatformAdapter } from './adapter.js';
import { fedblogAdapter } from './fedblog.adapter.js';
import { microblogAdapter } from './microblog.adapter.js';
import { problogAdapter } from './problog.adapter.js';
import { skyblogAdapter } from './skyblog.adapter.js';
import { threadblogAdapter } from './threadblog.adapter.js';

export { createPlatformRegistry, type PlatformRegistry } from './registry.js';

export const allAdapters = (): PlatformAdapter[] => [
  microblogAdapter,
  fedblogAdapter,
  threadblogAdapter,
  problogAdapter,
  skyblogAdapter,
];
