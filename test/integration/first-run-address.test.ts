/**
 * Issue #33 points 1 and 2 against the real headless Herald in a process of its own: the start
 * line names the UI's address; the page and the API answer at 127.0.0.1, localhost and [::1],
 * each page with a CSP that lets it reach the API at the address it was opened from; the
 * first-run wizard's step is kept on the server (across a restart) until it is finished; the API
 * key list tells sign-in sessions (and the caller's own) from keys; the page that ends a
 * connection is styled and closes itself, its one script allowed by hash.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChild, type ChildServer } from '../helpers/child-server.js';
import { tempDir } from '../helpers/server.js';

const dir = tempDir('herald-first-run-address-');
const ui = tempDir('herald-first-run-ui-');
const OWNER = { email: 'first@example.test', password: 'a long owner password' };
const NO_OWNER = { HERALD_OWNER_EMAIL: undefined, HERALD_OWNER_PASSWORD: undefined, HERALD_UI_DIR: ui };
let child: ChildServer;
let key = '';

/** GET `target` on the child's port, sent to `address` with the Host a browser would send for it. */
function get(address: string, host: string, target: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }>((resolve, reject) => {
    const req = http.request(
      {
        host: address,
        port: child.port,
        path: target,
        headers: { host: `${host}:${child.port}`, ...headers },
        agent: false,
      },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => {
          text += c.toString();
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  fs.writeFileSync(path.join(ui, 'index.html'), '<!doctype html><title>Herald</title><div id="root"></div>');
  child = await startChild({ dataDir: dir, env: NO_OWNER });
}, 60_000);

afterAll(async () => {
  await child?.kill();
  for (const d of [dir, ui]) fs.rmSync(d, { recursive: true, force: true });
});

describe("the UI's address", () => {
  it('the start line says where the UI is', () => {
    expect(child.output()).toContain(`Herald UI at http://127.0.0.1:${child.port}/`);
    expect(child.output()).toContain(`Herald API listening on http://127.0.0.1:${child.port}/api/v1`);
  });

  it('the page and the API answer at 127.0.0.1, localhost and [::1], each CSP naming its own address', async () => {
    for (const [address, host] of [
      ['127.0.0.1', '127.0.0.1'],
      ['127.0.0.1', 'localhost'],
      ['::1', '[::1]'],
    ]) {
      const page = await get(address, host, '/');
      expect(page.status, `${host}: ${page.text}`).toBe(200);
      // Chromium drops an IPv6 literal from a CSP source list as invalid: [::1] gets 'self'.
      expect(page.headers['content-security-policy']).toContain(
        `connect-src ${host === '[::1]' ? "'self'" : `http://${host}:${child.port}`}`,
      );
      const api = await get(address, host, '/api/v1/auth/setup', { accept: 'application/json' });
      expect(api.status, `${host}: ${api.text}`).toBe(200);
      expect(JSON.parse(api.text)).toMatchObject({ success: true, needsSetup: true, wizardStep: null });
    }
    // Another name for the same address stays refused (DNS rebinding).
    expect((await get('127.0.0.1', 'evil.example', '/')).status).toBe(403);
  });
});

describe("the wizard's step is kept on the server", () => {
  it('creating the owner starts the wizard at where secrets live', async () => {
    const setup = await child.call('POST', '/auth/setup', { body: { ...OWNER, session: true } });
    expect(setup.status, setup.text).toBe(200);
    key = setup.body.apiKey.key;
    expect((await child.call('GET', '/auth/setup')).body).toMatchObject({ needsSetup: false, wizardStep: 'secrets' });
  });

  it('each step reached is answered to the next page load, across a restart, until finished', async () => {
    const r = await child.call('PUT', '/setup/wizard', { key, body: { step: 'defaults' } });
    expect(r.status, r.text).toBe(200);
    expect(r.body.wizardStep).toBe('defaults');
    expect((await child.call('PUT', '/setup/wizard', { key, body: { step: 'later' } })).status).toBe(400);
    expect((await child.call('PUT', '/setup/wizard', { body: { step: 'networks' } })).status).toBe(401);
    await child.kill();
    child = await startChild({ dataDir: dir, env: NO_OWNER });
    expect((await child.call('GET', '/auth/setup')).body.wizardStep).toBe('defaults');
    expect((await child.call('PUT', '/setup/wizard', { key, body: { step: null } })).body.wizardStep).toBeNull();
    expect((await child.call('GET', '/auth/setup')).body.wizardStep).toBeNull();
  });
});

describe('browser sessions and API keys', () => {
  it("the key list marks sign-in sessions and the caller's own", async () => {
    const made = await child.call('POST', '/auth/api-keys', { key, body: { name: 'My scripts' } });
    expect(made.status, made.text).toBe(200);
    const list = (await child.call('GET', '/auth/api-keys', { key })).body.apiKeys as {
      name: string;
      session: boolean;
      current: boolean;
    }[];
    expect(list.find((k) => k.name === 'My scripts')).toMatchObject({ session: false, current: false });
    expect(list.filter((k) => k.current)).toEqual([expect.objectContaining({ session: true })]);
  });
});

describe('the page that ends a connection', () => {
  it('is styled, says what happened and closes itself, with a CSP allowing only its own script', async () => {
    const r = await get('127.0.0.1', '127.0.0.1', '/api/v1/microblog/callback?state=not-a-state&code=abc', {
      accept: 'text/html',
    });
    expect(r.status).toBe(400);
    expect(r.text).toMatch(/<style>.*prefers-color-scheme:dark/s);
    expect(r.text).toMatch(/X was not connected/);
    expect(r.text).toMatch(/closes by itself/);
    const script = /<script>(.*?)<\/script>/s.exec(r.text)![1];
    expect(script).toContain('window.close()');
    const hash = crypto.createHash('sha256').update(script).digest('base64');
    const csp = String(r.headers['content-security-policy']);
    expect(csp).toContain(`script-src 'sha256-${hash}'`);
    expect(csp).toMatch(/default-src 'none'/);
    expect(csp).not.toMatch(/unsafe-eval|script-src[^;]*unsafe-inline/);
  });
});
