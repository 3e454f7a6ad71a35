/** Ids and random tokens come from an injected source, so tests can pin them. */
import crypto from 'node:crypto';

export interface Ids {
  uuid(): string;
  /**
   * A UUID whose first 48 bits are the current time (UUIDv7, RFC 9562): rows keyed by it are
   * appended at the end of their index instead of landing on random pages, so a transaction that
   * inserts many of them writes a few pages to the WAL, not one per row.
   */
  ordered(): string;
  /** `bytes` of cryptographic randomness, base62-encoded. */
  token(bytes?: number): string;
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Unbiased base62 string of `length` characters. */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of crypto.randomBytes(length * 2)) {
      if (byte < 248) out += BASE62[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

/** UUIDv7: 48-bit Unix milliseconds, version 7, then the random bits of a v4 UUID (variant kept). */
export function uuidV7(ms = Date.now()): string {
  const t = ms.toString(16).padStart(12, '0');
  return `${t.slice(0, 8)}-${t.slice(8, 12)}-7${crypto.randomUUID().slice(15)}`;
}

export const systemIds: Ids = {
  uuid: () => crypto.randomUUID(),
  ordered: () => uuidV7(),
  token: (bytes = 24) => randomBase62(Math.ceil((bytes * 8) / Math.log2(62))),
};

let processIds = 0;
let firstCall: string | undefined;
/**
 * An id no other live or earlier process on this machine hands out (the pid, the time of this
 * process's first call in ms, a count: a later process with the same pid runs later), made
 * without random bytes, so what start-up needs to tell its own rows and notes from others' loads
 * neither node:crypto nor perf_hooks. Not a secret.
 */
export function processUniqueId(): string {
  firstCall ??= Date.now().toString(36);
  return `${process.pid}.${firstCall}.${++processIds}`;
}
