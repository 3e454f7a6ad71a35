export { HeraldClient, HeraldError, DEFAULT_BASE_URL, type ClientOptions } from './herald-client.js';
export * as text from './text/index.js';
