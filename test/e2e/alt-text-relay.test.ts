/**
 * In real Chromium against a real Herald (#35): the composer counts each image's alt text per
 * chosen network, its way (red over a limit: 1,001 characters are over X's 1,000 and within
 * Bluesky's 2,000) and warns when an image has none; Settings sets "require alt text" and the
 * media relay against a real S3-compatible server (fields, Save, Test with its result, Remove with
 * confirmation). Screenshots at 390 and 1280 px go to test-results/screenshots.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAccount, userIdOf } from '../helpers/drafts.js';
import { pngBytes } from '../helpers/png.js';
import { OWNER } from '../helpers/server.js';
import { pressNew, signIn, startUiApp, type UiApp } from '../helpers/ui-app.js';
import { startS3, type S3Peer } from '../peers/s3.peer.js';

let app: UiApp;
let s3: S3Peer;
let key: string;
const page = () => app.page;

beforeAll(async () => {
  [app, s3] = await Promise.all([startUiApp({ server: { scheduler: false } }), startS3()]);
  key = await signIn(app, '#/compose');
  const owner = userIdOf(app.t, OWNER.email);
  addAccount(app.t, owner, 'microblog');
  addAccount(app.t, owner, 'skyblog');
}, 60_000);

afterAll(async () => {
  await app?.close();
  await s3?.close();
});

describe('alt text in the composer', () => {
  it('warns on an image without alt text and counts it per network, red where over', async () => {
    await page().goto(`${app.origin}/#/compose`);
    await page().reload();
    await pressNew(page());
    await page().getByRole('heading', { name: 'New draft' }).waitFor();
    await page().getByRole('textbox', { name: 'Post 1', exact: true }).fill('A green square.');
    await page()
      .getByLabel('Add media to post 1')
      .setInputFiles({ name: 'green.png', mimeType: 'image/png', buffer: pngBytes(40, 40, [30, 200, 30]) });
    const thumb = page().locator('[data-post="0"] [data-media]');
    await thumb.waitFor();
    await expect.poll(() => thumb.locator('[data-alt-missing]').count()).toBe(1);
    await page().getByLabel('Alt text for media 1 of post 1').fill('g'.repeat(1001));
    const x = thumb.locator('[data-alt-count="microblog"]');
    const sky = thumb.locator('[data-alt-count="skyblog"]');
    await expect.poll(() => x.textContent()).toContain('X 1001/1000');
    expect(await x.getAttribute('data-over')).toBe('true');
    expect(await sky.textContent()).toContain('Bluesky 1001/2000');
    expect(await sky.getAttribute('data-over')).toBeNull();
    expect(await thumb.locator('[data-alt-missing]').count()).toBe(0);
    for (const width of [390, 1280]) {
      await page().setViewportSize({ width, height: 900 });
      await thumb.scrollIntoViewIfNeeded();
      await app.shot(`alt-text-composer-${width}`);
    }
  });
});

describe('Settings', () => {
  it('sets require alt text, and the media relay with its Test result and Remove', async () => {
    await page().setViewportSize({ width: 1280, height: 900 });
    await page().goto(`${app.origin}/#/settings`);
    const require = page().locator('[data-require-alt-text]');
    await require.waitFor();
    await expect.poll(() => require.isEnabled()).toBe(true);
    await require.check();
    await page().getByRole('button', { name: 'Save', exact: true }).click();
    await expect
      .poll(async () => (await app.t.call('GET', '/settings', { key })).body.settings.requireAltText)
      .toBe(true);

    const relay = page().getByRole('form', { name: 'Media relay settings' });
    await relay.getByLabel(/^Endpoint/).fill(s3.endpoint);
    await relay.getByLabel(/^Bucket/).fill(s3.bucket);
    await relay.getByLabel(/^Access key id/).fill(s3.accessKeyId);
    await relay.getByLabel(/^Secret access key/).fill(s3.secretAccessKey);
    await relay.getByRole('button', { name: 'Save relay' }).click();
    await expect
      .poll(async () => (await app.t.call('GET', '/media-relay', { key })).body.relay?.bucket)
      .toBe(s3.bucket);
    await relay.getByRole('button', { name: 'Test' }).click();
    const result = page().locator('[data-relay-test-result]');
    await expect.poll(() => result.textContent()).toMatch(/✓ Herald put a file in "herald-relay"/);
    expect(await s3.keys()).toEqual([]);
    const panel = page().locator('[data-media-relay]');
    for (const width of [390, 1280]) {
      await page().setViewportSize({ width, height: 900 });
      await panel.scrollIntoViewIfNeeded();
      await panel.screenshot({ path: `test-results/screenshots/media-relay-settings-${width}.png` });
    }
    await relay.getByRole('button', { name: 'Remove' }).click();
    await expect.poll(async () => (await app.t.call('GET', '/media-relay', { key })).body.relay).toBeNull();
    expect(app.dialogs.some((d) => /Remove the media relay/.test(d))).toBe(true);
  });
});
