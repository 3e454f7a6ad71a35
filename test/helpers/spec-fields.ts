/**
 * Checks of an answer's field names and types against the spec's "Resources and their fields"
 * (the foundation-resources and foundation-sets-accounts tests): sorted key lists, and timestamps
 * in ISO 8601 UTC.
 */
import { expect } from 'vitest';

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/;
export const keysOf = (o: object) => Object.keys(o).sort();
export const sorted = (...k: string[]) => [...k].sort();
export function isTimestamp(v: unknown) {
  expect(v).toMatch(ISO_UTC);
}
