/**
 * Time-ordered ids (UUIDv7, RFC 9562) for rows inserted many at a time: their order follows
 * creation time, so an index on them grows at its end.
 */
import { describe, expect, it } from 'vitest';
import { systemIds, uuidV7 } from '../../server/core/ids.js';

describe('uuidV7', () => {
  it('carries the millisecond time in its first 48 bits, version 7 and the RFC variant', () => {
    const ms = Date.parse('2026-11-23T17:00:00.123Z');
    const id = uuidV7(ms);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(parseInt(id.slice(0, 8) + id.slice(9, 13), 16)).toBe(ms);
  });

  it('sorts ids of later milliseconds after earlier ones, and never repeats', () => {
    const base = Date.now();
    const ids = Array.from({ length: 2000 }, (_, i) => uuidV7(base + Math.floor(i / 100)));
    const sorted = [...ids].sort();
    for (let i = 0; i < ids.length; i++) expect(Math.floor(sorted.indexOf(ids[i]) / 100)).toBe(Math.floor(i / 100));
    expect(new Set(ids).size).toBe(ids.length);
    const a = systemIds.ordered();
    expect(systemIds.ordered() >= a.slice(0, 13)).toBe(true);
  });
});
