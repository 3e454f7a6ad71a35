/** Processes from /proc (Linux): what a command really leaves running. */
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
    } catch { /* gone meanwhile */ }
  }
  const out: { pid: number; cmd: string }[] = [];
  const visit = (p: number) => {
    try { out.push({ pid: p, cmd: fs.readFileSync(`/proc/${p}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ') }); } catch { return; }
    for (const c of children.get(p) ?? []) visit(c);
  };
  visit(pid);
  return out;
}
