/**
 * The client library in a browser: esbuild bundles client/index.ts for platform=browser (a Node
 * built-in anywhere in its imports fails the build), the bundle holds none of the server, and
 * real Chromium runs it against a real server from the server's own origin (no `process`, no
 * Node): list, create, typed errors.
 */
import { build } from 'esbuild';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { launchChromium } from '../helpers/browser.js';
import { addAccount, userIdOf } from '../helpers/drafts.js';
import { OWNER, startServer, type TestServer } from '../helpers/server.js';

// Chromium starts slowly on a loaded machine.
vi.setConfig({ testTimeout: 120_000 });

let t: TestServer;
let key: string;
let browser: Browser | undefined;

beforeAll(async () => {
  t = await startServer({ scheduler: false });
  key = await t.login();
  addAccount(t, userIdOf(t, OWNER.email), 'skyblog');
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

describe('the client library in a browser', () => {
  it('bundles for platform=browser with no Node built-in and none of the server, and works in Chromium', async () => {
    const out = await build({
      entryPoints: ['client/index.ts'],
      bundle: true,
      platform: 'browser',
      format: 'iife',
      globalName: 'Herald',
      target: 'es2022',
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    expect(out.errors).toEqual([]);
    const inputs = Object.keys(out.metafile.inputs);
    expect(inputs).toContain('client/herald-client.ts');
    expect(
      inputs.filter((i) => i.startsWith('server/') || /^node:|node_modules\/(zod|express|better-sqlite3)\//.test(i)),
    ).toEqual([]);
    const bundle = out.outputFiles[0].text;
    expect(bundle).not.toMatch(/require\(["']node:|from ["']node:/);

    browser = await launchChromium();
    const context = await browser.newContext({ bypassCSP: true });
    const page = await context.newPage();
    await page.goto(`${t.base}/openapi.json`);
    await page.addScriptTag({ content: bundle });
    const result = await page.evaluate(
      async ({ apiKey }) => {
        const H = (globalThis as any).Herald;
        const client = new H.HeraldClient({ baseUrl: `${location.origin}/api/v1`, apiKey });
        const created = await client.createDraft({
          title: 'From Chromium',
          tweets: [
            { content: 'one', position: 0 },
            { content: 'two', position: 1 },
          ],
        });
        const list = await client.listDrafts();
        const err = await client.getDraft('no-such-draft').catch((e: any) => e);
        const counted = H.text.countText('skyblog', 'héllo 👋🏽');
        return {
          hasProcess: typeof (globalThis as any).process !== 'undefined',
          created: created.draft.tweets.map((x: any) => x.plainText),
          listed: list.drafts.map((d: any) => d.title),
          err: { isHeraldError: err instanceof H.HeraldError, name: err.name, code: err.code, status: err.status },
          counted: counted.count,
        };
      },
      { apiKey: key },
    );
    expect(result).toEqual({
      hasProcess: false,
      created: ['one', 'two'],
      listed: ['From Chromium'],
      err: { isHeraldError: true, name: 'HeraldError', code: 'NOT_FOUND', status: 404 },
      counted: 7,
    });
    expect((await t.call('GET', '/microblog/drafts', { key })).body.drafts.map((d: any) => d.title)).toEqual([
      'From Chromium',
    ]);
  });
});
