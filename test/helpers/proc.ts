/** Processes from /proc (Linux): what a command really leaves running. */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import fs from 'node:fs';

/** `pid` and every process below it, with each one's command line. */
export function processTree(pid: number): { pid: number; cmd: string }[] {
  const children = new Map<number, number[]>();
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${d}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(d)]);
    } catch {
      /* gone meanwhile */
    }
  }
  const out: { pid: number; cmd: string }[] = [];
  const visit = (p: number) => {
    try {
      out.push({ pid: p, cmd: fs.readFileSync(`/proc/${p}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ') });
    } catch {
      return;
    }
    for (const c of children.get(p) ?? []) visit(c);
  };
  visit(pid);
  return out;
}

/**
 * Starts a Herald command (`node scripts/start.mjs --headless`, a service's ExecStart, …) and
 * resolves once it prints its listening line, with the origin from it; rejects, with what it
 * printed, if it exits first or says nothing in `ms`.
 */
export function startListening(
  cmd: string,
  args: string[],
  opts: SpawnOptions,
  ms = 120_000,
): Promise<{ child: ChildProcess; origin: string }> {
  const child = spawn(cmd, args, { ...opts, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no listening line in ${ms / 1000} s:\n${out}`)), ms);
    const read = (b: Buffer) => {
      out += b.toString();
      const m = /Herald API listening on (http:\/\/127\.0\.0\.1:\d+)\/api\/v1/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ child, origin: m[1] });
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited ${code}:\n${out}`));
    });
  });
}

/** Stops a child started by startListening (SIGTERM) and waits for it; nothing when it is gone. */
export async function stopChild(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}
