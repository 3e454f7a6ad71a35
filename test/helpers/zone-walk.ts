/**
 * One walk through Herald's UI with the machine in one zone and the user in another (#32): the
 * test process, which hosts the server, runs under TZ = the machine's zone, and so does the
 * browser (timezoneId). The wizard chooses the user's zone; the first account makes the Default
 * set (in the user's zone); a post is queued into a slot and another scheduled from the composer;
 * then every page that shows times is read: each shown time must be the set's or the user's zone
 * rendering of its instant, and no known instant may appear in the machine's zone.
 */
import { expect } from 'vitest';
import { addAccount, userIdOf } from './drafts.js';
import { OWNER } from './server.js';
import { startUiApp, type UiApp } from './ui-app.js';
import { formatIn, formatLocal, localToInstant } from '../../time/index.js';

export interface ZoneWalk {
  machine: string;
  user: string;
  locale: string;
  /** A local time that does not exist in the user's zone (a DST gap), and what the composer says of it. */
  gap?: { local: string; words: string };
}

/** Sets the process's zone (the server's machine zone) before anything reads it. */
export function runUnder(zone: string): void {
  process.env.TZ = zone;
}

const norm = (s: string) => s.replace(/[\u202f\u00a0]/g, ' ').trim();

interface Shown {
  iso: string;
  zone: string;
  text: string;
  clock: boolean;
}

/** Every <time> the page shows, with the instant and zone it carries. */
async function shownTimes(app: UiApp): Promise<Shown[]> {
  return app.page.evaluate(() =>
    [...document.querySelectorAll('time[datetime]')].map((e) => ({
      iso: e.getAttribute('datetime')!,
      zone: e.getAttribute('data-zone') ?? '',
      text: e.textContent ?? '',
      clock: !!e.closest('.cal-time'),
    })),
  );
}

/**
 * Checks one page: at least `min` shown times, each in an allowed zone and equal to the
 * formatter's rendering there (the zone named when it is not the user's), and none of the known
 * instants written in the machine's zone anywhere in the page's text.
 */
export async function checkPage(app: UiApp, w: ZoneWalk, name: string, known: string[], min = 1): Promise<number> {
  await expect
    .poll(async () => (await shownTimes(app)).length, { message: `${name}: shown times`, timeout: 15_000 })
    .toBeGreaterThanOrEqual(min);
  const shown = await shownTimes(app);
  for (const s of shown) {
    expect([w.user], `${name}: ${s.text} shown in ${s.zone}`).toContain(s.zone);
    const expected = s.clock ? formatIn(s.iso, s.zone, w.locale, 'time') : formatIn(s.iso, s.zone, w.locale);
    expect(norm(s.text), `${name}: ${s.iso}`).toBe(norm(expected));
  }
  const body = norm(await app.page.locator('body').innerText());
  for (const iso of [...known, ...shown.map((s) => s.iso)]) {
    const inMachine = [
      formatIn(iso, w.machine, w.locale),
      new Date(iso).toLocaleString(w.locale, { timeZone: w.machine }),
    ].map(norm);
    const inUser = norm(formatIn(iso, w.user, w.locale));
    for (const m of inMachine) if (m !== inUser) expect(body, `${name}: ${iso} in the machine's zone`).not.toContain(m);
  }
  return shown.length;
}

/** The wizard, choosing the user's zone; answers the owner's key. */
export async function walkWizard(app: UiApp, w: ZoneWalk): Promise<string> {
  const page = app.page;
  await page.goto(`${app.origin}/`);
  const owner = page.getByRole('form', { name: 'Create your Herald account' });
  await owner.getByLabel('E-mail').fill(OWNER.email);
  await owner.getByLabel('Password').fill(OWNER.password);
  await owner.getByRole('button', { name: 'Create and continue' }).click();
  await page
    .getByRole('form', { name: 'Where Herald keeps secrets' })
    .getByRole('button', { name: 'Continue' })
    .click();
  const defaults = page.getByRole('form', { name: 'Time zone and language' });
  await defaults.locator('[data-detected]').waitFor();
  const field = defaults.getByLabel('Time zone for schedules');
  // The machine's zone is what it starts with.
  await expect.poll(() => field.inputValue(), { timeout: 15_000 }).toBe(w.machine);
  await field.fill('Nowhere/Land');
  await defaults.locator('[data-zone-hint].error').waitFor();
  // The searchable list offers the zone with its offset.
  const option = defaults.locator(`datalist option[value="${w.user}"]`);
  expect(await option.getAttribute('label')).toMatch(/\(UTC[+-]\d\d:\d\d\)$/);
  await field.fill(w.user);
  await expect(defaults.locator('[data-zone-hint]').textContent()).resolves.toMatch(/^UTC[+-]\d\d:\d\d now$/);
  await defaults.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('region', { name: 'Connect networks' }).getByRole('button', { name: 'Later' }).click();
  await page.locator('nav[aria-label="Main"]').waitFor();
  return (await page.evaluate(() => localStorage.getItem('herald.apiKey')))!;
}

export async function startZoneApp(w: ZoneWalk): Promise<UiApp> {
  expect(Intl.DateTimeFormat().resolvedOptions().timeZone, "the test process runs in the machine's zone").toBe(
    w.machine,
  );
  return startUiApp({
    server: { owner: false, scheduler: false, settings: { HERALD_SECRET_STORE: 'file' } },
    context: { timezoneId: w.machine, locale: w.locale },
  });
}

/** The whole walk: wizard, set, slot post, scheduled post, then every page with times. */
export async function walkEveryPage(app: UiApp, w: ZoneWalk, shot: (name: string) => Promise<void>): Promise<void> {
  const page = app.page;
  const key = await walkWizard(app, w);
  const call = async (method: string, p: string, body?: unknown) => {
    const r = await app.t.call<any>(method, p, { key, body });
    if (r.status >= 300) throw new Error(`${method} ${p}: ${r.status} ${r.text}`);
    return r.body;
  };
  expect((await call('GET', '/me')).timezone).toBe(w.user);

  // Connecting the first account makes the Default set: in the user's zone.
  const userId = userIdOf(app.t, OWNER.email);
  const { accountId: fed, socialSetId: setId } = addAccount(app.t, userId, 'fedblog');
  const x = addAccount(app.t, userId, 'microblog', { socialSetId: setId }).accountId;
  const set = (await call('GET', '/social-sets')).socialSets.find((s: any) => s.id === setId);
  expect(set.timeZone).toBe(w.user);
  // Every day at 09:00 (set's zone).
  await call('PUT', `/social-sets/${setId}/slots`, {
    slots: [1, 2, 3, 4, 5, 6, 7].map((day) => ({ day, time: '09:00' })),
  });

  // A published and a failed post (rows, as a network would leave them) for History and Calendar.
  const published = (
    await call('POST', '/microblog/drafts', {
      title: 'Out already',
      tweets: [{ content: 'out' }],
      selectedAccountIds: [x],
    })
  ).draft.id;
  const pubAt = new Date(Date.now() - 2 * 86_400_000).toISOString();
  app.t.server.sqlite
    .prepare(
      `INSERT INTO publications (id, user_id, draft_id, account_id, platform, status, attempts, error, url,
        published_at, created_at, updated_at)
    VALUES ('pub-zone', ?, ?, ?, 'microblog', 'published', 1, NULL, 'https://x.example/status/1', ?, ?, ?)`,
    )
    .run(userId, published, x, pubAt, pubAt, pubAt);

  // Queue a slot post from the composer: the notice names the slot in the set's zone.
  const draft = async (title: string) =>
    (await call('POST', '/microblog/drafts', { title, tweets: [{ content: title }] })).draft.id as string;
  await page.goto(`${app.origin}/#/compose?draft=${await draft('Into the next slot')}`);
  await page.reload(); // the accounts arrived after the wizard's pages loaded
  await page.getByText(`Times are in ${w.user}.`).waitFor();
  await page.getByRole('button', { name: 'Add to queue' }).click();
  const queued = (await call('GET', '/microblog/queue?count=1')).items[0];
  expect(formatLocal(w.user, Date.parse(queued.at)).local.slice(11)).toBe('09:00');
  await page.getByText(`Queued for ${norm(formatIn(queued.at, w.user, w.locale))}.`).waitFor();

  // Schedule another at a typed 09:00 next month-ish, jitter off: the fire times row.
  await page.goto(`${app.origin}/#/compose?draft=${await draft('At nine, your time')}`);
  await page.getByText(`Times are in ${w.user}.`).waitFor();
  const year = new Date().getUTCFullYear() + 1;
  await page.getByLabel(/jitter/).uncheck();
  await page.getByLabel('Schedule time').fill(`${year}-01-15T09:00`);
  await page.getByRole('button', { name: 'Schedule', exact: true }).click();
  const fires = page.locator('[aria-label="Scheduled"] [data-schedule]');
  await expect.poll(() => fires.count(), { timeout: 15_000 }).toBe(2);
  const typed = new Date(localToInstant(w.user, year, 1, 15, 9, 0)).toISOString();
  const entries = (await call('GET', '/microblog/schedule')).schedules;
  // The composer's 09:00 is 09:00 in the set's zone, whatever the machine's or the browser's.
  expect(entries.filter((e: any) => e.scheduledFor === typed)).toHaveLength(2);
  const known = [typed, queued.at, pubAt];
  await checkPage(app, w, 'Compose fire times', known, 2);
  await expect(fires.first().locator('time').textContent()).resolves.toBe(formatIn(typed, w.user, w.locale));
  await shot('compose-fire-times');
  if (w.gap) {
    // A typed time in the DST gap: the rule, in words, before anything is scheduled.
    await page.getByLabel('Schedule time').fill(w.gap.local);
    await expect(page.locator('[data-dst-note]').textContent()).resolves.toBe(` ${w.gap.words}.`);
    await page.getByLabel('Schedule time').fill(`${year}-01-15T09:00`);
    await expect(page.locator('[data-dst-note]').count()).resolves.toBe(0);
  }

  const visit = async (hash: string, name: string, min: number) => {
    await page.goto(`${app.origin}/${hash}`);
    await page.locator('nav[aria-label="Main"]').waitFor();
    return checkPage(app, w, name, known, min);
  };
  await visit('#/queue', 'Queue', 3);
  await page.getByRole('tab', { name: 'Slots' }).click();
  await checkPage(app, w, 'Queue slots', known, 3);
  const month = formatLocal(w.user, Date.parse(typed)).local.slice(0, 10);
  await visit(`#/calendar?date=${month}`, 'Calendar', 1);
  // The Move dialog: its inputs hold the post's time in the set's zone.
  await page
    .getByTestId('calendar')
    .getByRole('button', { name: /^Move / })
    .first()
    .click();
  const dialog = page.getByRole('dialog', { name: 'Reschedule' });
  await dialog.getByText(`Times in ${w.user}.`).waitFor();
  for (const v of await dialog
    .locator('input[type="time"]')
    .evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value)))
    expect(v).toBe('09:00');
  await checkPage(app, w, 'Move dialog', known, 1);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await visit('#/history', 'History', 1);
  await visit('#/drafts', 'Drafts', 3);
  await visit('#/accounts', 'Accounts', 2);
  await visit('#/keys', 'API keys', 1);
  await visit('#/credits', 'Credits', 2);

  // Settings shows the zone; changing it there moves every shown time at once.
  await page.goto(`${app.origin}/#/settings`);
  const zoneField = page.getByLabel(/^Your time zone/);
  await expect.poll(() => zoneField.inputValue(), { timeout: 15_000 }).toBe(w.user);
  await shot('settings-zone');
  expect(app.problems).toEqual([]);
}
