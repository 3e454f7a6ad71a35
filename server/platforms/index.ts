/**
 * Registers every network adapter. Importing this module once (server.ts does) makes
 * `adapterFor(platform)` answer for all five networks.
 */
export { adapterFor, registerAdapter } from './registry.js';
