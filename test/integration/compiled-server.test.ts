/**
 * The compiled server (what `npm start` and `npm run serve` run) with the start-up savings of
 * scripts/build.mjs in place: contracts built on first use, node:crypto, qs and mime-types loaded
 * on first use (each through a stand-in object). Every path that first reaches one of them answers
 * as Express and Node would: a sign-in (scrypt and SHA-256), an API key, JSON bodies with a
 * charset (type-is and mime-types), validated queries, static files and the docs with their media
 * types (mime-types), and a HEAD request (Express's own router).
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startListening, stopChild } from '../helpers/proc.js';
import { tempDir } from '../helpers/server.js';

const ROOT = path.resolve('.');
const OWNER = { email: 'compiled@example.test', password: 'a long compiled passphrase' };
let child: ChildProcess | undefined;
let base = '';
let origin = '';
const dir = tempDir('herald-compiled-');

beforeAll(async () => {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('HERALD_') && !k.startsWith('npm_')) env[k] = v;
  Object.assign(env, {
    HERALD_DATA_DIR: dir,
    HERALD_PORT: '0',
    HERALD_SECRET_STORE: 'file',
    HERALD_OWNER_EMAIL: OWNER.email,
    HERALD_OWNER_PASSWORD: OWNER.password,
    HERALD_PASSWORD_COST: '14',
  });
  ({ child, origin } = await startListening(process.execPath, ['scripts/start.mjs', '--headless'], { cwd: ROOT, env }));
  base = `${origin}/api/v1`;
}, 150_000);

afterAll(async () => {
  await stopChild(child);
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('the compiled server loads what it put off, on first use', () => {
  it('signs in, keys, parses bodies and queries, and names the media type of every file it serves', async () => {
    const login = await fetch(`${base}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify({ email: OWNER.email, password: OWNER.password }),
    });
    expect(login.status).toBe(200);
    expect(login.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const key = ((await login.json()) as { apiKey: { key: string } }).apiKey.key;
    expect(key).toMatch(/^hk_/);
    const wrong = await fetch(`${base}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: OWNER.email, password: 'not the passphrase' }),
    });
    expect(wrong.status).toBe(401);

    const h = { 'svc-key': key, 'content-type': 'application/json' };
    // A body the contract refuses names the field; one it takes is kept as parsed (trimmed).
    const bad = await fetch(`${base}/templates`, { method: 'POST', headers: h, body: JSON.stringify({ name: '' }) });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { details: { path: string }[] }).details[0].path).toBe('body.name');
    const made = await fetch(`${base}/templates`, {
      method: 'POST',
      headers: h,
      body: JSON.stringify({ name: '  Launch  ' }),
    });
    expect(made.status).toBe(200);
    expect(((await made.json()) as { template: { name: string } }).template.name).toBe('Launch');
    // A query read by the simple parser and checked by its contract.
    const list = await fetch(`${base}/microblog/drafts?limit=2&status=draft`, { headers: { 'svc-key': key } });
    expect(list.status).toBe(200);
    const badQuery = await fetch(`${base}/microblog/drafts?limit=nope`, { headers: { 'svc-key': key } });
    expect(badQuery.status).toBe(400);
    // HEAD goes to Express's router, built on first use.
    const head = await fetch(`${base}/templates`, { method: 'HEAD', headers: { 'svc-key': key } });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');

    // The UI's files and the docs, each with its media type.
    const page = await fetch(`${origin}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    const assets = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.(js|css))"/g)];
    expect(assets.map((m) => m[2]).sort()).toEqual(expect.arrayContaining(['css', 'js']));
    for (const [, file, ext] of assets) {
      const res = await fetch(`${origin}${file}`);
      expect(res.status, file).toBe(200);
      expect(res.headers.get('content-type'), file).toMatch(
        ext === 'js' ? /^(text|application)\/javascript/ : /^text\/css/,
      );
      await res.arrayBuffer();
    }
    const docs = await fetch(`${base}/docs`);
    expect(docs.headers.get('content-type')).toMatch(/^text\/html/);
    const css = await fetch(`${base}/docs.css`);
    expect(css.headers.get('content-type')).toMatch(/^text\/css/);
    const doc = (await (await fetch(`${base}/openapi.json`)).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths).length).toBeGreaterThan(60);
  }, 60_000);
});
