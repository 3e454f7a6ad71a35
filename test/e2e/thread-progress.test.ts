/**
 * A thread's parts on screen: a 5-part thread published to LinkedIn from the composer, its third
 * comment held at a fault proxy; while it is held the progress line says which part is going out
 * ("part 4 of 5"), and once let go, that all five went, as History does. Real Chromium, the
 * LinkedIn simulator behind the fault proxy.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFaultProxy, type FaultProxy } from '../helpers/fault-proxy.js';
import { connectOAuth } from '../helpers/oauth-connect.js';
import { signIn, startUiApp, type UiApp } from '../helpers/ui-app.js';
import { startLinkedInSimulator, type LinkedInSimulator } from '../simulators/index.js';

let li: LinkedInSimulator;
let proxy: FaultProxy;
let app: UiApp;
let key: string;
const page = () => app.page;

beforeAll(async () => {
  li = await startLinkedInSimulator();
  proxy = await startFaultProxy(li.url);
  app = await startUiApp({
    server: {
      settings: {
        HERALD_PROBLOG_API_URL: proxy.url,
        HERALD_PROBLOG_AUTHORIZE_URL: li.authorizeUrl,
        HERALD_PROBLOG_TOKEN_URL: li.tokenUrl,
        HERALD_PROBLOG_CLIENT_ID: li.clientId,
        HERALD_PROBLOG_CLIENT_SECRET: li.clientSecret,
      },
    },
  });
  key = await signIn(app, '#/accounts');
}, 60_000);
afterAll(async () => {
  await app?.close();
  await proxy?.close();
  await li?.close();
});

async function shots(name: string) {
  for (const width of [390, 1280]) {
    await page().setViewportSize({ width, height: 900 });
    await app.shot(`${name}-${width}`);
  }
  await page().setViewportSize({ width: 1280, height: 800 });
}

describe('a LinkedIn thread going out', () => {
  it('shows the part being sent, then all five parts, in the composer and in History', async () => {
    const connected = await connectOAuth(app.t, key, 'problog');
    expect(connected.status, JSON.stringify(connected.body)).toBe(200);
    const texts = Array.from({ length: 5 }, (_, i) => `On screen: part ${i + 1} of 5`);
    const made = await app.t.call('POST', '/microblog/drafts', {
      key,
      body: { title: 'Thread on screen', tweets: texts.map((content) => ({ content })) },
    });
    expect(made.status, made.text).toBe(200);
    await page().goto(`${app.origin}/#/compose?draft=${made.body.draft.id}`);

    const hold = proxy.hold(/^POST \/rest\/socialActions\/[^/]+\/comments$/, { skip: 2 });
    await page().getByRole('button', { name: 'Publish now' }).click();
    await page()
      .getByRole('dialog', { name: 'Publish now?' })
      .getByRole('button', { name: 'Publish', exact: true })
      .click();
    await hold.arrived;
    const parts = page().locator('[data-progress="problog"] [data-parts]');
    await expect.poll(() => parts.textContent(), { timeout: 15_000 }).toBe(' part 4 of 5');
    await parts.scrollIntoViewIfNeeded();
    await shots('36-thread-progress-part-4-of-5');

    hold.release();
    await page().locator('[data-outcome="published"]').waitFor({ timeout: 30_000 });
    await expect.poll(() => parts.textContent(), { timeout: 15_000 }).toBe(' 5 parts');
    expect(li.comments.filter((c) => texts.includes(c.text)).map((c) => c.text)).toEqual(texts.slice(1));

    await page().goto(`${app.origin}/#/history`);
    const listed = page().locator('[data-parts="5"]');
    await listed.waitFor();
    await expect(listed.textContent()).resolves.toBe(' 5 parts');
    await shots('36-history-thread-parts');
  }, 90_000);
});
