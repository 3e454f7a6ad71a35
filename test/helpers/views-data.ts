/**
 * Data for the view tests, chosen so that a layout that cannot wrap overflows: long titles without
 * spaces, long URLs, long names. X and Mastodon accounts in a social set in Asia/Kolkata (the
 * browser is in Europe/Berlin), a draft scheduled on both at 10:30 Kolkata time on the 10th of
 * next month, templates, a key, and publications (published with long links, failed) written as
 * rows, as addAccount writes accounts: nothing here can reach a network.
 */
import { addAccount, userIdOf } from './drafts.js';
import { OWNER } from './server.js';
import { signIn, startUiApp, type UiApp } from './ui-app.js';
import { localToInstant } from '../../time/index.js';

export const ZONE = 'Asia/Kolkata';
export const LONG_WORD = 'Supercalifragilisticexpialidocious-announcement-without-any-spaces-at-all-for-the-layout';
export const LONG_URL =
  `https://example.com/${'a-very-long-path-segment-that-never-breaks/'.repeat(6)}?utm_source=herald&utm_medium=` +
  `${'x'.repeat(80)}`;

export interface ViewsWorld {
  key: string;
  setId: string;
  x: string;
  fed: string;
  /** The draft scheduled on both networks, and its wall date ("YYYY-MM-DD" in Kolkata). */
  scheduled: string;
  date: string;
  call(method: string, p: string, body?: unknown): Promise<any>;
}

export async function seedViews(app: UiApp, key: string): Promise<ViewsWorld> {
  const call = async (method: string, p: string, body?: unknown) => {
    const r = await app.t.call(method, p, { key, body });
    if (r.status >= 300) throw new Error(`${method} ${p}: ${r.status} ${r.text}`);
    return r.body;
  };
  const owner = userIdOf(app.t, OWNER.email);
  const { accountId: fed, socialSetId: setId } = addAccount(app.t, owner, 'fedblog');
  const x = addAccount(app.t, owner, 'microblog', { socialSetId: setId }).accountId;
  await call('PUT', '/social-sets', { id: setId, timeZone: ZONE, name: `Main set ${LONG_WORD}`.slice(0, 100) });

  const draft = async (title: string, text: string) =>
    (await call('POST', '/microblog/drafts', { title, tweets: [{ content: text }], selectedAccountIds: [x, fed] }))
      .draft.id as string;
  const scheduled = await draft(`Launch day: ${LONG_WORD}`, `Read all about it ${LONG_URL}`);
  const now = new Date();
  const next = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 10));
  const date = next.toISOString().slice(0, 10);
  const at = localToInstant(ZONE, next.getUTCFullYear(), next.getUTCMonth() + 1, 10, 10, 30);
  await call('POST', '/microblog/schedule', {
    draftId: scheduled,
    scheduledFor: new Date(at).toISOString(),
    applyJitter: false,
    targetAccounts: [{ accountId: x }, { accountId: fed }],
  });
  await draft(`A second draft ${LONG_WORD}`, `${LONG_URL} ${LONG_URL}`);

  await call('POST', '/templates', {
    name: `Signature ${LONG_WORD}`,
    description: LONG_URL,
    headContentPlain: LONG_URL,
    tailContentPlain: '#herald',
  });
  await call('POST', '/auth/api-keys', { name: `Scripts ${LONG_WORD}`.slice(0, 100), tier: 'pro' });

  // Publications: two published (long links, 3 days ago), one failed (40 days ago).
  const published = await draft(`Published news ${LONG_WORD}`, 'out already');
  const insert = app.t.server.sqlite
    .prepare(`INSERT INTO publications (id, user_id, draft_id, account_id, platform, status, attempts, error, url,
        published_at, created_at, updated_at)
    VALUES (?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?)`);
  const ago = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();
  insert.run(
    'pub-x',
    owner,
    published,
    x,
    'microblog',
    'published',
    null,
    `https://x.example/status/${'1'.repeat(19)}/${LONG_WORD}`,
    ago(3),
    ago(3),
    ago(3),
  );
  insert.run(
    'pub-fed',
    owner,
    published,
    fed,
    'fedblog',
    'published',
    null,
    `https://mastodon.example/@herald/${'9'.repeat(18)}?${LONG_WORD}`,
    ago(3),
    ago(3),
    ago(3),
  );
  const old = await draft(`Old failure ${LONG_WORD}`, 'never went out');
  insert.run(
    'pub-old',
    owner,
    old,
    x,
    'microblog',
    'failed',
    `X refused the post: ${LONG_WORD}`,
    null,
    null,
    ago(40),
    ago(40),
  );
  return { key, setId, x, fed, scheduled, date, call };
}

/** Whether the page scrolls sideways (the document is wider than the window). */
/** A signed-in browser on a Herald without a scheduler, the views' data seeded (layout and views tests share it). */
export async function startViewsApp(): Promise<{ app: UiApp; w: ViewsWorld }> {
  const app = await startUiApp({ server: { scheduler: false } });
  const key = await signIn(app, '#/drafts');
  const w = await seedViews(app, key);
  await app.page.reload();
  return { app, w };
}

export function overflowsSideways(
  page: UiApp['page'],
): Promise<{ scrollWidth: number; clientWidth: number; widest?: string }> {
  return page.evaluate(() => {
    const el = document.scrollingElement!;
    let widest: string | undefined;
    if (el.scrollWidth > el.clientWidth) {
      // Name the culprit: the deepest element reaching past the right edge.
      const over = [...document.querySelectorAll('body *')].filter(
        (e) => e.getBoundingClientRect().right > el.clientWidth + 1,
      );
      const last = over[over.length - 1];
      widest = last ? `${last.tagName.toLowerCase()}.${last.className} ${last.textContent?.slice(0, 60)}` : undefined;
    }
    return { scrollWidth: el.scrollWidth, clientWidth: el.clientWidth, widest };
  });
}
