/**
 * The composer's link card and language picker in real Chromium against a real Herald and a
 * loopback web site: the card of the first link shows under its post after a loading state;
 * "Use another link" offers the other links of the text and switches the card; Remove takes it
 * off (and Add brings the default back); a page that cannot be read shows no card; each choice is
 * what the saved draft holds. The language picker shows the default from the settings, Detect
 * offers a guess that changes nothing until it is taken, and the chosen tag is saved.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMastodonSimulator, type MastodonSimulator } from '../simulators/mastodon.simulator.js';
import { connectOAuth } from '../helpers/oauth-connect.js';
import { html, startLinkPages, type LinkPages } from '../helpers/link-pages.js';
import { pressNew, signIn, startUiApp, type UiApp } from '../helpers/ui-app.js';
import { makePng } from '../peers/png.js';

let masto: MastodonSimulator;
let site: LinkPages;
let app: UiApp;

const page = () => app.page;
const post = (i: number) => page().getByRole('textbox', { name: `Post ${i}`, exact: true });
const card = () => page().locator('[data-link-card]');
const saved = () =>
  app.t.server.sqlite
    .prepare('SELECT language, link_card AS linkCard FROM drafts ORDER BY updated_at DESC LIMIT 1')
    .get() as { language: string | null; linkCard: string | null };

async function save() {
  await page().keyboard.press('Control+s');
  await page().locator('[data-notice]', { hasText: 'Saved.' }).waitFor();
}

beforeAll(async () => {
  [masto, site] = await Promise.all([startMastodonSimulator(), startLinkPages()]);
  site.route('/slow', (_req, res) => {
    setTimeout(
      () =>
        res
          .writeHead(200, { 'content-type': 'text/html' })
          .end(
            html(
              '<meta property="og:title" content="Slow page"><meta property="og:description" content="Worth ' +
                'the wait"><meta property="og:site_name" content="Slow Site"><meta property="og:image" ' +
                'content="/cover.png">',
            ),
          ),
      1_200,
    );
  });
  site.route('/cover.png', (_req, res) =>
    res.writeHead(200, { 'content-type': 'image/png' }).end(makePng(120, 60, { rgb: [20, 120, 220] })),
  );
  site.route('/b', (_req, res) =>
    res
      .writeHead(200, { 'content-type': 'text/html' })
      .end(html('<title>Page B</title><meta name="description" content="The second link">')),
  );
  app = await startUiApp({ server: { settings: { HERALD_DEFAULT_LANGUAGE: 'en-GB' } } });
  const key = await app.t.login();
  expect((await connectOAuth(app.t, key, 'fedblog', { instanceUrl: masto.url })).status).toBe(200);
  await signIn(app);
}, 60_000);

afterAll(async () => {
  await app?.close();
  await Promise.all([masto?.close(), site?.close()]);
});

describe('link card in the composer', () => {
  it(
    "shows the first link's card after a loading state; another link switches it; Remove and Add; each choice " +
      'is saved',
    async () => {
      await pressNew(page());
      await page().getByRole('heading', { name: 'New draft' }).waitFor();
      await post(1).fill(`Two reads: ${site.url}/slow and ${site.url}/b.`);
      await page().locator('[data-link-card="loading"]').waitFor();
      const ready = page().locator('[data-link-card="ready"]');
      await ready.waitFor();
      await expect.poll(() => ready.textContent()).toContain('Slow page');
      expect(await ready.textContent()).toContain('Worth the wait');
      expect(await ready.textContent()).toContain('Slow Site');
      // The page's image, read through Herald (the UI's CSP loads images only from Herald).
      const img = ready.locator('[data-link-card-image]');
      await img.waitFor();
      await expect.poll(() => img.evaluate((e) => (e as HTMLImageElement).naturalWidth)).toBe(120);
      expect(await img.getAttribute('src')).toMatch(/^blob:/);
      await app.shot('composer-link-card');

      await ready.getByRole('button', { name: 'Use another link' }).click();
      const choices = page().getByRole('group', { name: 'Links in the text' }).getByRole('button');
      expect(await choices.allTextContents()).toEqual([`${site.url}/b`]);
      await choices.first().click();
      await expect
        .poll(async () => await page().locator('[data-link-card="ready"]').getAttribute('data-link-card-url'))
        .toBe(`${site.url}/b`);
      expect(await page().locator('[data-link-card="ready"]').textContent()).toContain('Page B');
      await save();
      expect(JSON.parse(saved().linkCard!)).toEqual({ url: `${site.url}/b` });

      await page().getByRole('button', { name: 'Remove link card' }).click();
      await page().locator('[data-link-card="removed"]').waitFor();
      await save();
      expect(saved().linkCard).toBe('false');

      await page().getByRole('button', { name: 'Add a link card' }).click();
      await expect
        .poll(async () => await page().locator('[data-link-card="ready"]').getAttribute('data-link-card-url'))
        .toBe(`${site.url}/slow`);
      await save();
      expect(saved().linkCard).toBeNull();
      // The page was read once: the server kept the card.
      expect(site.hits.get('/slow')).toBe(1);
    },
  );

  it('shows nothing for a page that cannot be read, and nothing without a link', async () => {
    await post(1).fill(`Broken: ${site.url}/missing`);
    await expect.poll(() => site.hits.get('/missing') ?? 0).toBe(1);
    await page().waitForTimeout(300);
    expect(await card().count()).toBe(0);
    await post(1).fill('No link at all');
    await page().waitForTimeout(400);
    expect(await card().count()).toBe(0);
  });
});

describe('post language', () => {
  it('shows the default, offers a detected language without applying it, and saves the chosen tag', async () => {
    const select = page().getByRole('combobox', { name: 'Post language' });
    expect(await select.locator('option:checked').textContent()).toBe('Default (British English, en-GB)');
    await post(1).fill('Heute ist das Wetter schön und wir gehen mit dem Hund in den Park, aber nicht lange.');
    await page().getByRole('button', { name: 'Detect' }).click();
    await page().locator('[data-language-guess="de"]').waitFor();
    // A suggestion only: nothing changed yet.
    expect(await select.inputValue()).toBe('');
    await page().getByRole('button', { name: 'Use German' }).click();
    expect(await select.inputValue()).toBe('de');
    await save();
    // The notice of an earlier save may still be up: wait for the row itself.
    await expect.poll(() => saved().language).toBe('de');
    await select.selectOption('');
    await save();
    await expect.poll(() => saved().language).toBeNull();
  });

  it('the default is a setting: changed in Settings, the composer shows it and publishing uses it', async () => {
    await page().getByRole('link', { name: 'Settings' }).click();
    const field = page().locator('[data-default-language]');
    await expect.poll(() => field.inputValue()).toBe('en-GB');
    await field.fill('fr');
    await page().getByRole('button', { name: 'Save', exact: true }).click();
    await page().getByRole('status').filter({ hasText: 'the rest at once' }).waitFor();
    expect(app.t.server.deps.config.defaultLanguage).toBe('fr');
    await page().getByRole('link', { name: 'Compose' }).click();
    const select = page().getByRole('combobox', { name: 'Post language' });
    await expect.poll(() => select.locator('option:checked').textContent()).toBe('Default (French, fr)');
    expect(app.problems).toEqual([]);
  });
});
