/**
 * Herald's UI in real Chromium against a real server: one browser per test file, one page reused
 * across its tests. Every page error, console error, CSP violation and dialog is recorded so a
 * test can assert that none happened; screenshots go to test-results/screenshots.
 */
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { launchChromium, shotPath } from './browser.js';
import { builtUi } from './ui-build.js';
import { startServer, type TestServer } from './server.js';
import type { ServerOptions } from '../../server/server.js';

export interface UiApp {
  t: TestServer;
  browser: Browser;
  context: BrowserContext;
  /** The page tests drive; a test may replace it (e.g. after closing it). */
  page: Page;
  /** The app's origin, e.g. http://127.0.0.1:41517 */
  origin: string;
  /** Page errors, console errors and CSP violations seen so far. */
  problems: string[];
  /** Every dialog (confirm dialogs are accepted, others dismissed). */
  dialogs: string[];
  shot(name: string): Promise<void>;
  close(): Promise<void>;
}

export async function startUiApp(
  opts: {
    server?: Partial<ServerOptions> & { owner?: boolean; settings?: Record<string, string> };
    context?: BrowserContextOptions;
    /** Console errors that are expected (e.g. a 4xx the test provokes), as patterns. */
    allowConsole?: RegExp[];
    /** Extra Chromium switches (the composer bench unlocks the frame rate). */
    browserArgs?: string[];
  } = {},
): Promise<UiApp> {
  const uiDir = await builtUi();
  const t = await startServer({ ...opts.server, uiDir });
  const browser = await launchChromium(opts.browserArgs);
  const context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    timezoneId: 'Europe/Berlin',
    locale: 'en-GB',
    ...opts.context,
  });
  // Shorter than the test timeout, so a stuck step fails with its own message.
  context.setDefaultTimeout(15_000);
  const problems: string[] = [];
  const dialogs: string[] = [];
  const watch = (page: Page) => {
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() !== 'error') return;
      if (opts.allowConsole?.some((re) => re.test(m.text()))) return;
      problems.push(`console: ${m.text()}`);
    });
    // A confirm() is the app asking before a delete: accept it. Anything else is recorded.
    page.on('dialog', (d) => {
      dialogs.push(`${d.type()}: ${d.message()}`);
      void (d.type() === 'confirm' ? d.accept() : d.dismiss()).catch(() => undefined);
    });
  };
  context.on('page', watch);
  const page = await context.newPage();
  const origin = t.server.url;
  const app: UiApp = {
    t,
    browser,
    context,
    page,
    origin,
    problems,
    dialogs,
    shot: async (name) => {
      await app.page.screenshot({ path: shotPath(name), fullPage: true });
    },
    close: async () => {
      await browser.close().catch(() => undefined);
      await t.close();
    },
  };
  return app;
}

/** Signs in through the API and puts the key where the UI keeps it, then opens `hash`. */
export async function signIn(app: UiApp, hash = '#/compose'): Promise<string> {
  const key = await app.t.login();
  await app.page.goto(`${app.origin}/${hash}`);
  await app.page.evaluate((k) => localStorage.setItem('herald.apiKey', k), key);
  await app.page.reload();
  try {
    await app.page.locator('nav[aria-label="Main"]').waitFor();
  } catch (err) {
    // Say what the page shows instead (still loading, the sign-in page, an error) and what the
    // browser logged, so a failure here names its cause.
    const shown = await app.page
      .locator('body')
      .innerText({ timeout: 2_000 })
      .catch(() => '(no body)');
    throw new Error(
      `signed in, but no main navigation after 15 s at ${app.page.url()}; the page shows: ` +
        `${JSON.stringify(shown.slice(0, 300))}; browser problems: ${JSON.stringify(app.problems.slice(-5))}`,
      { cause: err },
    );
  }
  return key;
}

/**
 * Ctrl+N, as a person presses it, then waits until the composer has started the new draft: it
 * replaces `?new=…` in the address with `#/compose` in the same step that empties its state. Text
 * filled before that step lands in the draft being left (which the step then replaces), a race a
 * loaded machine lost; a person cannot type between the key and the step.
 */
export async function pressNew(page: Page): Promise<void> {
  // The app takes the key once it is signed in and ready (its main navigation is shown).
  await page.locator('nav[aria-label="Main"]').waitFor();
  await page.evaluate(() => {
    const w = window as { heraldNewSeen?: boolean };
    w.heraldNewSeen = false;
    window.addEventListener('hashchange', () => (w.heraldNewSeen = true), { once: true });
  });
  await page.keyboard.press('Control+n');
  await page.waitForFunction(
    () => (window as { heraldNewSeen?: boolean }).heraldNewSeen === true && location.hash === '#/compose',
  );
}

/** Form controls, buttons and links on the page that have no accessible name (should be none). */
export function unnamedControls(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll('input, textarea, select, button, a[href]')]
      .filter((el) => {
        const e = el as HTMLInputElement;
        const name =
          e.getAttribute('aria-label') ||
          e.labels?.[0]?.textContent?.trim() ||
          e.textContent?.trim() ||
          e.getAttribute('title') ||
          e.getAttribute('aria-labelledby');
        return !name;
      })
      .map((el) => el.outerHTML.slice(0, 100)),
  );
}
