/** Zones, the DST rule, weekly slots and the one formatter of shown times: one module for every part of Herald. */
export * from './zones.js';
export * from './slots.js';
export * from './format.js';
