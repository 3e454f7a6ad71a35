/**
 * The world of the composer e2e files (composer.test.ts, composer-save-keyboard.test.ts): a real
 * Herald in real Chromium with an X and a Mastodon account connected over Herald's own OAuth to
 * the simulators, clipboard allowed, signed in on the composer; and the helpers those tests drive
 * the composer with. The state is exported as live bindings, set once `useComposerWorld()` has
 * started it. After each file's tests, no page error, console error, CSP violation or dialog may
 * have been seen (the composer tests' "nothing went wrong" check, for every file).
 */
import type { Route } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { startMastodonSimulator, type MastodonSimulator } from '../simulators/mastodon.simulator.js';
import { startXSimulator, xSimulatorSettings, type XSimulator } from '../simulators/x.simulator.js';
import { connectOAuth } from './oauth-connect.js';
import { pressNew, signIn, startUiApp, type UiApp } from './ui-app.js';
import { closeCheckingNothingWentWrong } from './ui-world.js';

const X_CLIENT = { clientId: 'herald-e2e', clientSecret: 'herald-e2e-secret' };

export let x: XSimulator;
export let masto: MastodonSimulator;
export let app: UiApp;
export let key: string;
export let xId: string;
export let mastoId: string;

/** Starts the world before the calling file's tests and closes it after. */
export function useComposerWorld(): void {
  beforeAll(async () => {
    [x, masto] = await Promise.all([startXSimulator(X_CLIENT), startMastodonSimulator()]);
    app = await startUiApp({ server: { settings: xSimulatorSettings(x, X_CLIENT) } });
    key = await app.t.login();
    const cx = await connectOAuth(app.t, key, 'microblog');
    const cm = await connectOAuth(app.t, key, 'fedblog', { instanceUrl: masto.url });
    expect([cx.status, cm.status]).toEqual([200, 200]);
    xId = cx.body.accountUuid;
    mastoId = cm.body.accountUuid;
    await app.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.origin });
    await signIn(app);
  }, 60_000);

  afterAll(() => closeCheckingNothingWentWrong(app, x, masto));
}

export const page = () => app.page;
export const post = (i: number) => page().getByRole('textbox', { name: `Post ${i}`, exact: true });
export const posts = () => page().locator('[data-post] textarea');
export const values = () => posts().evaluateAll((els) => els.map((e) => (e as HTMLTextAreaElement).value));
export const sql = <T>(q: string, ...args: unknown[]) => app.t.server.sqlite.prepare(q).all(...args) as T[];

export async function newDraft() {
  await pressNew(page());
  await page().getByRole('heading', { name: 'New draft' }).waitFor();
  await expect.poll(values).toEqual(['']);
}

/** A real paste (Ctrl+V) of `text` from the system clipboard into post `i`, at its caret. */
export async function paste(i: number, text: string) {
  await page().evaluate((t) => navigator.clipboard.writeText(t), text);
  await post(i).focus();
  await page().keyboard.press('Control+v');
}

export async function waitForPublished(n: number) {
  const links = page().getByLabel('Publishing progress').getByRole('link', { name: 'open' });
  await expect.poll(() => links.count(), { timeout: 30_000 }).toBe(n);
}

/**
 * Until the returned release runs, the page's draft saves (create, update) fail as if the server
 * were gone: the work stays unsaved however slow the machine is (the autosave fires a second after
 * the last change, and a loaded machine can take longer than that between two steps). The failed
 * loads Chromium logs for them are expected and dropped from the "nothing went wrong" record.
 */
export async function holdSaves(): Promise<() => Promise<void>> {
  const drafts = /\/api\/v1\/microblog\/drafts(\/[^/?#]+)?([?#]|$)/;
  let held = 0;
  const refuse = (route: Route) => {
    if (route.request().method() !== 'POST' && route.request().method() !== 'PUT') return route.continue();
    held += 1;
    return route.abort('internetdisconnected');
  };
  const before = app.problems.length;
  await app.context.route(drafts, refuse);
  return async () => {
    await app.context.unroute(drafts, refuse);
    const during = app.problems.splice(before);
    const failedLoads = during.filter((p) => /ERR_INTERNET_DISCONNECTED/.test(p));
    expect(failedLoads.length).toBeLessThanOrEqual(held);
    app.problems.push(...during.filter((p) => !failedLoads.includes(p)));
  };
}
