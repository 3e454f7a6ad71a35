/**
 * The composer with a video and a document (issue #35): each shows a title field and what each
 * selected network does with it (a 150 s video is over X's 140 s; a PDF is "LinkedIn only"),
 * before anything is sent. Screenshots at 390 and 1280 px (test-results/screenshots).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertAccount, ownerId } from '../helpers/fixtures.js';
import { pdf, timedVideo } from '../helpers/media-kinds.js';
import { pressNew, signIn, startUiApp, type UiApp } from '../helpers/ui-app.js';

let app: UiApp;
const page = () => app.page;

beforeAll(async () => {
  app = await startUiApp();
  await app.t.login();
  const uid = ownerId(app.t);
  for (const p of ['microblog', 'skyblog', 'problog']) insertAccount(app.t, uid, p);
  await signIn(app);
}, 60_000);

afterAll(async () => {
  await app?.close();
});

describe('a video and a document in the composer', () => {
  it('shows each network’s verdict and a title field per item', async () => {
    await pressNew(page());
    await page().getByRole('heading', { name: 'New draft' }).waitFor();
    await page().getByRole('textbox', { name: 'Post 1', exact: true }).fill('Our launch, in a video and a deck');
    await page()
      .getByLabel('Add media to post 1')
      .setInputFiles([
        { name: 'launch.mp4', mimeType: 'video/mp4', buffer: timedVideo(150_000, 2048) },
        { name: 'deck.pdf', mimeType: 'application/pdf', buffer: pdf(12) },
      ]);
    const nets = page().locator('.media-nets');
    await expect.poll(() => nets.count()).toBe(2);
    const video = await nets.nth(0).innerText();
    expect(video).toMatch(/X ✗ is 150 s long; X takes videos up to 140 s/);
    expect(video).toMatch(/LinkedIn ✓ 3 s–30 min, ≤ 500 MB/);
    const doc = await nets.nth(1).innerText();
    expect(doc).toMatch(/Bluesky ✗ LinkedIn only/);
    expect(doc).toMatch(/LinkedIn ✓ 12 pages/);
    const title = page().getByLabel('Title of media 2 of post 1 (LinkedIn shows it)');
    expect(await title.inputValue()).toBe('deck.pdf');
    await title.fill('Ten lessons from a year of posting');
    await title.blur();
    await expect
      .poll(() => app.t.server.sqlite.prepare("select title from media where type = 'document'").pluck().get())
      .toBe('Ten lessons from a year of posting');
    // The document is a tile with its pages and title in LinkedIn's preview, never an image (nor a broken one).
    const docTiles = page().locator('[data-doc-tile]');
    await expect.poll(() => docTiles.count()).toBeGreaterThan(0);
    await expect
      .poll(() => docTiles.first().innerText())
      .toMatch(/PDF · 12 pages\s*Ten lessons from a year of posting/);
    const images = await page().$$eval('img', (list) =>
      list.map((img) => ({ src: img.getAttribute('src') ?? '', broken: img.complete && img.naturalWidth === 0 })),
    );
    const docId = app.t.server.sqlite.prepare("select id from media where type = 'document'").pluck().get() as string;
    expect(images.filter((i) => i.broken || i.src.includes(docId))).toEqual([]);
    // Alt text is for images, GIFs and videos: no alt field nor "no alt text" warning under the document.
    const docThumb = page().locator('.thumb').nth(1);
    expect(await docThumb.locator('[data-alt-missing]').count()).toBe(0);
    expect(await docThumb.getByLabel('Alt text for media 2 of post 1').count()).toBe(0);
    expect(await page().locator('.thumb').nth(0).locator('[data-alt-missing]').count()).toBe(1);
    // Only the video lacks alt text: once it has some, no preview asks for more.
    await page().getByLabel('Alt text for media 1 of post 1').fill('A launch video');
    await expect
      .poll(() => page().locator('.pv-count').allInnerTexts())
      .not.toContainEqual(expect.stringMatching(/add alt/));
    for (const width of [1280, 390]) {
      await page().setViewportSize({ width, height: 900 });
      await app.shot(`composer-media-kinds-${width}`);
    }
    await page().setViewportSize({ width: 1280, height: 800 });
    // The video's thumbnail plays from this server: the UI's CSP allows it (media-src), nothing is blocked.
    const problems = app.problems;
    expect(problems, problems.join('\n')).toEqual([]);
  }, 60_000);
});
