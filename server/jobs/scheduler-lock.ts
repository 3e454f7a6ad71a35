/**
 * One scheduler per data folder: a lock file holding the owner's pid and a token. A lock whose
 * process is gone (killed, crashed) is stale and taken over; a second live process (the desktop
 * app beside `npm run serve`) serves the API but fires nothing.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** Tokens of locks held by this process (several servers may share one process in tests). */
const heldHere = new Set<string>();

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export class SchedulerLock {
  readonly file: string;
  private token: string | undefined;

  constructor(dataDir: string) {
    this.file = path.join(dataDir, 'scheduler.lock');
  }

  get held(): boolean {
    return this.token !== undefined;
  }

  /** Takes the lock if it is free or stale. */
  tryAcquire(): boolean {
    if (this.token) return true;
    for (let i = 0; i < 2; i++) {
      const token = crypto.randomBytes(12).toString('hex');
      try {
        const fd = fs.openSync(this.file, 'wx', 0o600);
        fs.writeSync(fd, JSON.stringify({ pid: process.pid, token }));
        fs.fsyncSync(fd);
        fs.closeSync(fd);
        this.token = token;
        heldHere.add(token);
        return true;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
      let owner: { pid: number; token: string } | undefined;
      try {
        owner = JSON.parse(fs.readFileSync(this.file, 'utf8')) as { pid: number; token: string };
      } catch {
        owner = undefined; // half-written or unreadable: treat as stale
      }
      const live = owner && alive(owner.pid) && (owner.pid !== process.pid || heldHere.has(owner.token));
      if (live) return false;
      try { fs.unlinkSync(this.file); } catch { /* another process took it over first */ }
    }
    return false;
  }

  release(): void {
    if (!this.token) return;
    try {
      const owner = JSON.parse(fs.readFileSync(this.file, 'utf8')) as { token: string };
      if (owner.token === this.token) fs.unlinkSync(this.file);
    } catch { /* already gone */ }
    heldHere.delete(this.token);
    this.token = undefined;
  }
}
