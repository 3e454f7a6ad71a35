/**
 * The always-on setup (issue #23 item 5c): deploy/herald.service, a systemd user unit, is a valid
 * unit whose ExecStart runs this checkout's scripts/start.mjs --headless with HERALD_DATA_DIR and
 * Restart=on-failure; started the way the unit starts it (that command, that working directory,
 * the unit's environment), the headless server serves the API to the CLI (bin/herald.mjs with an
 * API key) and the UI to a browser (GET /).
 */
import { spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cliEnv, herald } from '../helpers/cli.js';
import { startListening, stopChild } from '../helpers/proc.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const UNIT = path.join(ROOT, 'deploy/herald.service');

/** systemd's unit file syntax: [Section] headers, Key=Value lines, # and ; comments, backslash continuations. */
function parseUnit(text: string): Map<string, [string, string][]> {
  const sections = new Map<string, [string, string][]>();
  let current: [string, string][] | undefined;
  const lines = text.replace(/\\\n/g, ' ').split('\n');
  lines.forEach((raw, i) => {
    const line = raw.trim();
    if (!line || line.startsWith('#') || line.startsWith(';')) return;
    const header = /^\[([A-Za-z]+)\]$/.exec(line);
    if (header) {
      sections.set(header[1], (current = []));
      return;
    }
    const kv = /^([A-Za-z][A-Za-z0-9]*)=(.*)$/.exec(line);
    if (!kv || !current)
      throw new Error(`line ${i + 1} is neither a section header nor Key=Value inside a section: ${raw}`);
    current.push([kv[1], kv[2].trim()]);
  });
  return sections;
}

/**
 * The directives this unit may use, per section (systemd.unit(5), systemd.service(5), systemd.exec(5),
 * systemd.kill(5)).
 */
const KNOWN: Record<string, string[]> = {
  Unit: [
    'Description',
    'Documentation',
    'After',
    'Before',
    'Wants',
    'Requires',
    'BindsTo',
    'PartOf',
    'Conflicts',
    'ConditionPathExists',
    'StartLimitIntervalSec',
    'StartLimitBurst',
  ],
  Service: [
    'Type',
    'ExecStart',
    'ExecStartPre',
    'ExecStop',
    'ExecReload',
    'Restart',
    'RestartSec',
    'TimeoutStartSec',
    'TimeoutStopSec',
    'WorkingDirectory',
    'Environment',
    'EnvironmentFile',
    'KillSignal',
    'KillMode',
    'UMask',
    'NoNewPrivileges',
    'PrivateTmp',
    'ProtectSystem',
    'ProtectHome',
    'ReadWritePaths',
    'Nice',
    'MemoryMax',
  ],
  Install: ['WantedBy', 'RequiredBy', 'Alias', 'Also'],
};

const unit = parseUnit(fs.readFileSync(UNIT, 'utf8'));
const values = (section: string, key: string) => (unit.get(section) ?? []).filter(([k]) => k === key).map(([, v]) => v);
/** %h as systemd expands it in a user unit, with the checkout at ~/herald being this one. */
const home = path.join(os.tmpdir(), `herald-home-${process.pid}`);
const expand = (v: string) => v.replace(/%h\/herald/g, ROOT).replace(/%h/g, home);
const environment = () =>
  Object.fromEntries(
    values('Service', 'Environment').map((v) => {
      const [k, ...rest] = expand(v).split('=');
      return [k, rest.join('=')];
    }),
  );

describe('deploy/herald.service', () => {
  it('parses as a unit file with only known directives in [Unit], [Service] and [Install]', () => {
    expect([...unit.keys()]).toEqual(['Unit', 'Service', 'Install']);
    for (const [section, entries] of unit) {
      for (const [k] of entries) expect(KNOWN[section], `${section}.${k}`).toContain(k);
    }
    expect(values('Service', 'Type')).toEqual(['simple']);
    expect(values('Service', 'Restart')).toEqual(['on-failure']);
    expect(values('Install', 'WantedBy')).toEqual(['default.target']);
    expect(Object.keys(environment())).toContain('HERALD_DATA_DIR');
  });

  it(
    "ExecStart runs node on this checkout's scripts/start.mjs " + '--headless, from a working directory that exists',
    () => {
      const [exec] = values('Service', 'ExecStart');
      const argv = expand(exec).split(/\s+/);
      expect(argv.slice(0, 2)).toEqual(['/usr/bin/env', 'node']);
      expect(fs.existsSync(argv[0])).toBe(true);
      expect(argv[2]).toBe(path.join(ROOT, 'scripts/start.mjs'));
      expect(fs.existsSync(argv[2])).toBe(true);
      expect(argv.slice(3)).toEqual(['--headless']);
      expect(fs.statSync(expand(values('Service', 'WorkingDirectory')[0])).isDirectory()).toBe(true);
      // The package's own `npm run serve` is the same command.
      expect(JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts.serve).toBe(
        'node scripts/start.mjs --headless',
      );
    },
  );

  it('systemd-analyze verify accepts it (where systemd is installed)', () => {
    const analyze = spawnSync('systemd-analyze', ['--version']);
    if (analyze.error) return; // no systemd here: the parse above stands
    const copy = path.join(os.tmpdir(), `herald-${process.pid}.service`);
    fs.writeFileSync(copy, fs.readFileSync(UNIT, 'utf8').replace(/%h\/herald/g, ROOT));
    const r = spawnSync('systemd-analyze', ['verify', copy], { encoding: 'utf8' });
    fs.rmSync(copy, { force: true });
    expect(
      r.stderr
        .split('\n')
        .filter((l) => /herald-\d+\.service/.test(l) && !/Failed to|not found/.test(l))
        .join('\n'),
    ).toBe('');
    expect(r.status, r.stderr).toBe(0);
  });
});

let child: ChildProcess | undefined;
afterAll(async () => {
  await stopChild(child);
  fs.rmSync(home, { recursive: true, force: true });
});

describe('the headless server started as the unit starts it', () => {
  it('serves the API to the CLI with an API key, and the UI to a browser; SIGTERM stops it cleanly', async () => {
    const [exec] = values('Service', 'ExecStart');
    const argv = expand(exec).split(/\s+/);
    const env = {
      ...environment(),
      // Port 4780 may be taken on a shared machine: 0 picks a free one (the listening line says which).
      HERALD_PORT: '0',
      HERALD_OWNER_EMAIL: 'owner@example.com',
      HERALD_OWNER_PASSWORD: 'a long passphrase for the service',
      HERALD_PASSWORD_COST: '14',
      PATH: process.env.PATH,
      HOME: home,
    };
    fs.mkdirSync(home, { recursive: true });
    const started = await startListening(
      argv[0],
      argv.slice(1),
      { cwd: expand(values('Service', 'WorkingDirectory')[0]), env },
      180_000,
    );
    child = started.child;
    const url = started.origin;
    expect(fs.existsSync(path.join(home, '.local/share/herald'))).toBe(true);

    const login = await fetch(`${url}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'owner@example.com', password: 'a long passphrase for the service' }),
    });
    expect(login.status).toBe(200);
    const key = ((await login.json()) as { apiKey: { key: string } }).apiKey.key;

    // A draft lives in a social set (connecting an account makes the first one).
    const set = await fetch(`${url}/api/v1/social-sets`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'svc-key': key },
      body: JSON.stringify({ name: 'Main' }),
    });
    expect(set.status).toBe(200);
    const cliHome = path.join(home, 'cli');
    const opts = { env: cliEnv(cliHome, { HERALD_API_KEY: key, HERALD_BASE_URL: `${url}/api/v1` }), timeoutMs: 60_000 };
    const made = await herald(['draft', 'create', '--content', 'From the always-on server', '-o', 'minimal'], opts);
    expect(made.code, made.err).toBe(0);
    const list = await herald(['draft', 'list', '-o', 'json'], opts);
    expect(list.code, list.err).toBe(0);
    expect(list.out).toContain(made.out.trim());

    const page = await fetch(`${url}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    const html = await page.text();
    expect(html).toMatch(/<div id="root">|<script type="module"/);

    const exited = new Promise<number | null>((r) => child!.once('exit', r));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 240_000);
});
