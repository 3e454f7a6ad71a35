/**
 * Registers every network adapter. Importing this module once (server.ts does) makes
 * `adapterFor(platform)` answer for all five networks.
 */
export { adapterFor, registerAdapter } from './registry.js';
import { registerAdapter } from './registry.js';
import { microblogAdapter } from './microblog.adapter.js';
registerAdapter(microblogAdapter);
import { fedblogAdapter } from './fedblog.adapter.js';
registerAdapter(fedblogAdapter);
import { threadblogAdapter } from './threadblog.adapter.js';
registerAdapter(threadblogAdapter);
import { problogAdapter } from './problog.adapter.js';
registerAdapter(problogAdapter);
import { skyblogAdapter } from './skyblog.adapter.js';
registerAdapter(skyblogAdapter);
