/**
 * One scheduler per data folder (server/db/scheduler-lock.ts). The lock is an OS file lock, so
 * what matters is whether a live process holds it, not what a leftover file says: a lock note
 * naming a pid that now belongs to some other live process (pid reuse after a reboot) must not
 * keep Herald's scheduler from starting. Killed holders are covered in
 * test/reliability/scheduler-process.test.ts (two processes, SIGKILL, take-over).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer, tempDir, type TestServer } from '../helpers/server.js';

const open: TestServer[] = [];
afterEach(async () => {
  for (const t of open.splice(0)) await t.server.close().catch(() => {});
});

describe('the scheduler lock', () => {
  it('is not kept by a leftover note naming another live process', async () => {
    const dataDir = tempDir();
    // pid 1 is always alive; a lock decided by "is that pid alive?" would never be taken.
    fs.writeFileSync(
      path.join(dataDir, 'scheduler.lock'),
      JSON.stringify({ pid: 1, token: 'left over from before a reboot' }),
    );
    const t = await startServer({ dataDir });
    open.push(t);
    expect(t.server.scheduler?.active).toBe(true);
    expect(JSON.parse(fs.readFileSync(path.join(dataDir, 'scheduler.lock'), 'utf8')).pid).toBe(process.pid);
  });

  it('lets one of two servers on one folder fire, and the other take over once it stops', async () => {
    const dataDir = tempDir();
    const a = await startServer({ dataDir });
    open.push(a);
    const b = await startServer({ dataDir, owner: false });
    open.push(b);
    expect(a.server.scheduler?.active).toBe(true);
    expect(b.server.scheduler?.active).toBe(false);
    await b.server.scheduler!.tick();
    expect(b.server.scheduler?.active).toBe(false);

    await a.server.close();
    expect(fs.existsSync(path.join(dataDir, 'scheduler.lock'))).toBe(false);
    await b.server.scheduler!.tick(); // what its next sweep does
    expect(b.server.scheduler?.active).toBe(true);
    expect(JSON.parse(fs.readFileSync(path.join(dataDir, 'scheduler.lock'), 'utf8')).pid).toBe(process.pid);
  });

  it('creates its lock database owner-only (0600), like every other file of the data folder', async () => {
    if (process.platform === 'win32') return;
    const dataDir = tempDir();
    const t = await startServer({ dataDir });
    open.push(t);
    expect(t.server.scheduler?.active).toBe(true);
    expect(fs.statSync(path.join(dataDir, 'scheduler-lock.db')).mode & 0o777).toBe(0o600);
    // A lock file left 0644 by an earlier Herald is tightened when the lock is taken.
    await t.server.close();
    open.splice(0);
    fs.chmodSync(path.join(dataDir, 'scheduler-lock.db'), 0o644);
    const again = await startServer({ dataDir });
    open.push(again);
    expect(fs.statSync(path.join(dataDir, 'scheduler-lock.db')).mode & 0o777).toBe(0o600);
  });
});
