/**
 * The composer with a video and a document (issue #35): each shows a title field and what each
 * selected network does with it (a 150 s video is over X's 140 s; a PDF is "LinkedIn only"),
 * before anything is sent. Screenshots at 390 and 1280 px (test-results/screenshots).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertAccount, ownerId } from '../helpers/fixtures.js';
import { pdf, timedVideo } from '../helpers/media-kinds.js';
import { signIn, startUiApp, type UiApp } from '../helpers/ui-app.js';

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
    await page().keyboard.press('Control+n');
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
