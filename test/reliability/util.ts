/**
 * Small pieces the reliability tests share: the repository root, scratch folders for databases
 * that a test kills processes over, and a seeded PRNG for repeatable random moments.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * A scratch folder on tmpfs when there is one. A SIGKILL leaves the kernel's page cache intact
 * either way, so tests that kill Herald test SQLite committing before Herald answers and its WAL
 * recovery, not the disk's fsync latency (which would make them minutes long on CI machines).
 */
export function scratchDir(prefix: string): string {
  return fs.existsSync('/dev/shm')
    ? fs.mkdtempSync(`/dev/shm/${prefix}`)
    : fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** A seeded PRNG (mulberry32), so a failing random run can be repeated with its seed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
