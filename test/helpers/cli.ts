/**
 * Runs the real `herald` binary (bin/herald.mjs) in a child process, as a user's shell would:
 * pipes by default, or a pseudo-terminal through util-linux `script` when a test needs a TTY.
 * Spawning costs about half a second (tsx compiles on load), so tests run several at once
 * through `limit` and group their assertions.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';

export const BIN = path.resolve('bin/herald.mjs');

export interface CliResult {
  code: number;
  out: string;
  err: string;
  args: string[];
}

export interface CliOptions {
  /** Written to stdin, then stdin is closed (closed at once when absent). */
  stdin?: string;
  /** The whole environment of the child (see `cliEnv`). */
  env: Record<string, string | undefined>;
  cwd?: string;
  /** Kill after this long (a hung CLI fails the test instead of the suite). */
  timeoutMs?: number;
}

const ANSI = /\u001b\[/;

/** A clean environment: no key or URL inherited from the developer's shell, a private config folder. */
export function cliEnv(
  configHome: string,
  extra: Record<string, string | undefined> = {},
): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = {
    ...process.env,
    XDG_CONFIG_HOME: configHome,
    NO_COLOR: undefined,
    FORCE_COLOR: undefined,
    TERM: 'xterm-256color',
  };
  delete env.HERALD_API_KEY;
  delete env.HERALD_BASE_URL;
  for (const [k, v] of Object.entries(extra)) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  for (const k of Object.keys(env)) if (env[k] === undefined) delete env[k];
  return env;
}

/**
 * `herald …` with pipes for stdin, stdout and stderr. Piped output is not a terminal, so it
 * must never carry an escape sequence: every call checks that.
 */
export function herald(args: string[], opts: CliOptions): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: opts.env as NodeJS.ProcessEnv,
      cwd: opts.cwd,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => {
      out += c;
    });
    child.stderr.setEncoding('utf8').on('data', (c: string) => {
      err += c;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (signal) return reject(new Error(`herald ${args.join(' ')} was killed (${signal}); stderr: ${err}`));
      if (ANSI.test(out) || ANSI.test(err))
        return reject(
          new Error(`herald ${args.join(' ')} wrote an escape sequence to a pipe: ${JSON.stringify(out + err)}`),
        );
      resolve({ code: code ?? -1, out, err, args });
    });
    child.stdin.on('error', () => {
      /* the CLI may exit before reading stdin */
    });
    child.stdin.end(opts.stdin ?? '');
  });
}

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * `herald …` on a pseudo-terminal (util-linux `script`): stdin, stdout and stderr are all the
 * terminal, merged into `out` (with the terminal's \r\n line ends).
 */
export function heraldOnTty(args: string[], opts: CliOptions): Promise<CliResult> {
  const command = [process.execPath, BIN, ...args].map(shellQuote).join(' ');
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qefc', command, '/dev/null'], {
      env: opts.env as NodeJS.ProcessEnv,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => {
      out += c;
    });
    child.stderr.setEncoding('utf8').on('data', (c: string) => {
      err += c;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, out, err, args });
    });
    child.stdin.end();
  });
}

/** Runs async jobs with at most `n` at a time (two cores: a few CLI children at once). */
export function limit(n: number) {
  let active = 0;
  const queue: (() => void)[] = [];
  return async <T>(job: () => Promise<T>): Promise<T> => {
    if (active >= n) await new Promise<void>((r) => queue.push(r));
    active += 1;
    try {
      return await job();
    } finally {
      active -= 1;
      queue.shift()?.();
    }
  };
}

/**
 * Terminal columns of a string, written independently of cli/output.ts: CJK ideographs and
 * pictographic emoji take two columns, combining marks none, anything else one.
 */
export function displayWidth(s: string): number {
  let w = 0;
  for (const { segment } of new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(s)) {
    if (/^\p{M}+$/u.test(segment)) continue;
    w += /[\u3000-\u9fff\uac00-\ud7a3\uff00-\uff60]|\p{Extended_Pictographic}/u.test(segment) ? 2 : 1;
  }
  return w;
}

/** The display column where each header starts (headers are separated by two or more spaces). */
function headerStarts(header: string): { name: string; col: number }[] {
  const starts: { name: string; col: number }[] = [];
  const re = /\S+(?: \S+)*/g;
  for (let m = re.exec(header); m; m = re.exec(header))
    starts.push({ name: m[0], col: displayWidth(header.slice(0, m.index)) });
  return starts;
}

/** The text of each column of `line`, cut at the header's display columns. */
function cutAt(line: string, cols: number[]): string[] {
  const cells = cols.map(() => '');
  let col = 0;
  for (const { segment } of new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(line)) {
    let i = cols.length - 1;
    while (i > 0 && col < cols[i]) i -= 1;
    cells[i] += segment;
    col += displayWidth(segment);
  }
  return cells;
}

/**
 * Parses an aligned table and checks the alignment: every row's cells start exactly under their
 * header (the two columns before each start are blank on every line). Returns the rows as
 * objects keyed by header.
 */
export function parseTable(text: string, headers: string[]): Record<string, string>[] {
  const lines = text.replace(/\n$/, '').split('\n');
  const starts = headerStarts(lines[0]);
  if (JSON.stringify(starts.map((s) => s.name)) !== JSON.stringify(headers)) {
    throw new Error(
      `table headers ${JSON.stringify(starts.map((s) => s.name))}, expected ${JSON.stringify(headers)}:\n${text}`,
    );
  }
  const cols = starts.map((s) => s.col);
  return lines.slice(1).map((line) => {
    const raw = cutAt(line, cols);
    cols.forEach((c, i) => {
      if (i === 0 || displayWidth(line) <= c - 2) return;
      // The two columns before a cell are blank, and the cell starts right at its column.
      const gap = cutAt(line, [0, c - 2, c])[1];
      if (gap !== '  ' || (raw[i].trim() !== '' && raw[i].startsWith(' ')))
        throw new Error(`column ${starts[i].name} not aligned in:\n${line}\n\n${text}`);
    });
    return Object.fromEntries(headers.map((h, i) => [h, raw[i].trim()]));
  });
}

/** `key  value` lines: every value starts in the same column. Returns them as an object. */
export function parseKeyValues(text: string): Record<string, string> {
  const lines = text
    .replace(/\n$/, '')
    .split('\n')
    .filter((l) => /^\S+\s{2,}|^\S+$/.test(l));
  const cols = new Set(lines.filter((l) => /\s{2}\S/.test(l)).map((l) => l.search(/(?<=\S {2,})\S/)));
  if (cols.size > 1) throw new Error(`values not aligned (columns ${[...cols].join(', ')}):\n${text}`);
  return Object.fromEntries(
    lines.map((l) => {
      const m = /^(\S+)\s*(.*)$/.exec(l)!;
      return [m[1], m[2]];
    }),
  );
}

/** stdout of a successful run; otherwise an error that shows what the CLI said. */
export function ok(r: CliResult): string {
  if (r.code !== 0) throw new Error(`herald ${r.args.join(' ')} exited ${r.code}\nstdout: ${r.out}\nstderr: ${r.err}`);
  return r.out;
}
