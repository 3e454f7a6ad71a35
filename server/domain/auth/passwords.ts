/**
 * scrypt password hashes (node:crypto). Each hash records its own parameters
 * (`scrypt$N$r$p$salt$hash`), so a hash made under older, cheaper parameters still verifies and
 * `needsRehash` tells the sign-in to replace it with one at today's cost.
 */
import crypto from 'node:crypto';
import { promisify } from 'node:util';

// Wrapped on first use: reading crypto.scrypt at load would load node:crypto at every start.
let scryptAsync: ((pw: string, salt: Buffer, len: number, opts: crypto.ScryptOptions) => Promise<Buffer>) | undefined;
const scrypt = (pw: string, salt: Buffer, len: number, opts: crypto.ScryptOptions): Promise<Buffer> =>
  (scryptAsync ??= promisify(crypto.scrypt) as typeof scryptAsync & object)(pw, salt, len, opts);

/** OWASP Password Storage Cheat Sheet's minimum for scrypt: N=2^17, r=8, p=1. */
export const OWASP_COST_LOG2 = 17;
const R = 8,
  P = 1,
  LEN = 32;
/**
 * A hash read from the database is trusted only this far: a row edited to ask for N=2^30 would
 * otherwise make every sign-in allocate gigabytes.
 */
const MAX_COST_LOG2 = 20;

// scrypt needs 128·N·r bytes (plus a little per p); Node's default cap (32 MiB) is below N=2^17.
const maxmem = (n: number, r: number, p: number) => 128 * n * r + 128 * r * p + 1024 * 1024;

export interface PasswordCost {
  /** log2 of scrypt's N. */
  log2N: number;
}

export async function hashPassword(password: string, cost: PasswordCost = { log2N: OWASP_COST_LOG2 }): Promise<string> {
  const n = 2 ** cost.log2N;
  const salt = crypto.randomBytes(16);
  const hash = await scrypt(password.normalize('NFKC'), salt, LEN, { N: n, r: R, p: P, maxmem: maxmem(n, R, P) });
  return `scrypt$${n}$${R}$${P}$${salt.toString('base64')}$${hash.toString('base64')}`;
}

/**
 * A hash to compare against when the e-mail is unknown, made at the current cost, so an unknown
 * e-mail takes as long to refuse as a wrong password does. One per cost, made once.
 */
const dummies = new Map<number, Promise<string>>();
export function dummyPasswordHash(cost: PasswordCost = { log2N: OWASP_COST_LOG2 }): Promise<string> {
  let d = dummies.get(cost.log2N);
  if (!d) dummies.set(cost.log2N, (d = hashPassword(crypto.randomBytes(12).toString('hex'), cost)));
  return d;
}

function parse(stored: string) {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return undefined;
  const [n, r, p] = parts.slice(1, 4).map(Number);
  const log2N = Math.log2(n);
  if (!Number.isInteger(log2N) || log2N < 1 || log2N > MAX_COST_LOG2 || !(r >= 1 && r <= 32) || !(p >= 1 && p <= 16))
    return undefined;
  return { n, r, p, salt: Buffer.from(parts[4], 'base64'), hash: Buffer.from(parts[5], 'base64') };
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const h = parse(stored);
  if (!h || h.hash.length === 0) return false;
  const actual = await scrypt(password.normalize('NFKC'), h.salt, h.hash.length, {
    N: h.n,
    r: h.r,
    p: h.p,
    maxmem: maxmem(h.n, h.r, h.p),
  });
  return crypto.timingSafeEqual(actual, h.hash);
}

/** True when `stored` was made with other parameters than `cost` asks for today. */
export function needsRehash(stored: string, cost: PasswordCost = { log2N: OWASP_COST_LOG2 }): boolean {
  const h = parse(stored);
  return !h || h.n !== 2 ** cost.log2N || h.r !== R || h.p !== P || h.hash.length !== LEN;
}
