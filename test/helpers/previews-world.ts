/**
 * The world of the composer preview e2e files (composer-previews.test.ts,
 * composer-previews-rules.test.ts): a real Herald in real Chromium (reduced motion) with an account
 * on each of the five networks under known names and handles, and a second social set (a
 * Mastodon instance with its own limits, and Threads), signed in on the composer; the texts and
 * helpers those tests share. The state is exported as live bindings, set once
 * `usePreviewsWorld()` has started it. After each file's tests, no page error, console error, CSP
 * violation or dialog may have been seen (the preview tests' "nothing went wrong" check, for every
 * file).
 */
import { afterAll, beforeAll, expect } from 'vitest';
import { addAccount, userIdOf } from './drafts.js';
import { pngBytes } from './png.js';
import { OWNER } from './server.js';
import { pressNew, signIn, startUiApp, type UiApp } from './ui-app.js';
import { closeCheckingNothingWentWrong } from './ui-world.js';

export let app: UiApp;
export let owner: string;
export let smallSet: string;
export const NETWORKS = ['microblog', 'skyblog', 'fedblog', 'threadblog', 'problog'] as const;
export const NAMES = {
  microblog: 'Ada Lovelace',
  skyblog: 'Ada Lovelace',
  fedblog: 'Ada',
  threadblog: 'Ada Lovelace',
  problog: 'Ada Lovelace',
};
export const HANDLES = {
  microblog: 'ada',
  skyblog: 'ada.bsky.social',
  fedblog: 'ada',
  threadblog: 'ada.lovelace',
  problog: 'ada-lovelace',
};

export const page = () => app.page;
export const post = (i: number) => page().getByRole('textbox', { name: `Post ${i}`, exact: true });
export const preview = (p: string) => page().locator(`[data-preview="${p}"]`);
export const sql = (q: string, ...args: unknown[]) => app.t.server.sqlite.prepare(q).run(...args);

export async function newDraft() {
  await pressNew(page());
  await page().getByRole('heading', { name: 'New draft' }).waitFor();
  await expect.poll(() => page().locator('[data-post] textarea').count()).toBe(1);
}

export async function addImages(i: number, colours: [number, number, number][], alts: string[] = []) {
  const before = await page()
    .locator(`[data-post="${i - 1}"] [data-media]`)
    .count();
  await page()
    .getByLabel(`Add media to post ${i}`)
    .setInputFiles(
      colours.map((c, k) => ({ name: `img${k}.png`, mimeType: 'image/png', buffer: pngBytes(160, 90, c) })),
    );
  await expect
    .poll(() =>
      page()
        .locator(`[data-post="${i - 1}"] [data-media]`)
        .count(),
    )
    .toBe(before + colours.length);
  for (const [k, alt] of alts.entries())
    if (alt)
      await page()
        .getByLabel(`Alt text for media ${before + k + 1} of post ${i}`)
        .fill(alt);
}

/** Starts the world before the calling file's tests and closes it after. */
export function usePreviewsWorld(): void {
  beforeAll(async () => {
    app = await startUiApp({ context: { reducedMotion: 'reduce' } });
    await app.t.login();
    owner = userIdOf(app.t, OWNER.email);
    for (const p of NETWORKS) {
      const { accountId } = addAccount(app.t, owner, p);
      sql(
        'UPDATE accounts SET username = ?, display_name = ?, server_url = ? WHERE id = ?',
        HANDLES[p],
        NAMES[p],
        p === 'fedblog' ? 'https://mastodon.example' : null,
        accountId,
      );
    }
    // A second set: a Mastodon instance with its own limits, and Threads.
    const small = addAccount(app.t, owner, 'fedblog', {
      mode: 'create_new',
      meta: { max_characters: 1000, characters_reserved_per_url: 30, max_media_attachments: 2 },
    });
    smallSet = small.socialSetId;
    sql('UPDATE accounts SET server_url = ? WHERE id = ?', 'https://small.example', small.accountId);
    addAccount(app.t, owner, 'threadblog', { socialSetId: smallSet });
    await signIn(app);
  }, 60_000);

  afterAll(() => closeCheckingNothingWentWrong(app));
}

export const LINK = 'https://example.com/blog/launching-herald-a-local-first-publisher';
export const FIRST =
  `Launching Herald today: write once, publish to every network. Read the story at ${LINK} with @alice and ` +
  `#opensource`;
export const SECOND =
  'Everything stays on your computer: drafts, media and tokens in the keychain. ' +
  'It schedules, retries and tells you what happened on each network, post by post, in plain words. '.repeat(3);
