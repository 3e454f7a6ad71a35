/**
 * Issue #21's "Done when", in real Chromium: Herald starts on an EMPTY data folder with no
 * network app in the environment (only the endpoint settings that point it at the simulators,
 * as tests reach them, and loopback addresses allowed for the Mastodon instance and the PDS).
 * The owner goes through the wizard, sets up the X, Threads and LinkedIn apps on Settings →
 * Networks (Threads with its own HTTPS redirect URI, so it connects through the pasted address),
 * connects one account on each of the five networks on the Accounts page (X, Mastodon, Threads
 * and LinkedIn on their simulators, Bluesky on a real PDS), writes one post, publishes it to all
 * five and sees five "open" links, each to that network's post, and each network holds exactly
 * one copy (read from the simulators' state and the PDS's repo, never from Herald).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startLinkedInSimulator,
  startMastodonSimulator,
  startThreadsSimulator,
  startXSimulator,
  type LinkedInSimulator,
  type MastodonSimulator,
  type ThreadsSimulator,
  type XSimulator,
} from '../simulators/index.js';
import { startPds, type PdsAccount, type PdsPeer } from '../peers/pds.js';
import { canaryToken } from '../simulators/util.js';
import { useFastPolling } from '../helpers/networks.js';
import { startUiApp, type UiApp } from '../helpers/ui-app.js';

const OWNER = { email: 'first-run@example.test', password: 'a long first-run password' };
const X_APP = { clientId: 'first-run-x', clientSecret: canaryToken('x', 'secret') };
const THREADS_APP = { clientId: 'first-run-threads', clientSecret: canaryToken('threads', 'secret') };
const LI_APP = { clientId: 'first-run-linkedin', clientSecret: canaryToken('linkedin', 'secret') };
const THREADS_REDIRECT = 'https://herald-redirect.example.test/threads';
const TEXT = 'Hello from Herald: one post, five networks.';

let x: XSimulator;
let masto: MastodonSimulator;
let threads: ThreadsSimulator;
let li: LinkedInSimulator;
let pds: PdsPeer;
let sky: PdsAccount;
let app: UiApp;
const page = () => app.page;
const panel = (name: string) => page().getByRole('region', { name, exact: true });
const accountsIn = () =>
  app.t.server.sqlite
    .prepare('SELECT platform FROM accounts ORDER BY platform')
    .all()
    .map((r: any) => r.platform as string);

beforeAll(async () => {
  [x, masto, threads, li, pds] = await Promise.all([
    startXSimulator(X_APP),
    startMastodonSimulator(),
    // Threads only takes HTTPS redirect URIs (and only the registered one), as the real one.
    startThreadsSimulator({ ...THREADS_APP, httpsRedirectsOnly: true, redirectUris: [THREADS_REDIRECT] }),
    startLinkedInSimulator(LI_APP),
    startPds(),
  ]);
  sky = await pds.createAccount('firstrun');
  app = await startUiApp({
    server: {
      // No owner, the default secret store (the OS keychain), and no client id or secret:
      // only where each network's API, sign-in and token endpoints are.
      owner: false,
      settings: {
        HERALD_SECRET_STORE: '',
        HERALD_ALLOW_PRIVATE_ADDRESSES: '1',
        HERALD_MICROBLOG_API_URL: x.url,
        HERALD_MICROBLOG_AUTHORIZE_URL: x.authorizeUrl,
        HERALD_MICROBLOG_TOKEN_URL: x.tokenUrl,
        HERALD_THREADBLOG_API_URL: threads.url,
        HERALD_THREADBLOG_AUTHORIZE_URL: threads.authorizeUrl,
        HERALD_THREADBLOG_TOKEN_URL: threads.tokenUrl,
        HERALD_PROBLOG_API_URL: li.url,
        HERALD_PROBLOG_AUTHORIZE_URL: li.authorizeUrl,
        HERALD_PROBLOG_TOKEN_URL: li.tokenUrl,
      },
    },
  });
  // Threads and LinkedIn poll for readiness every few seconds in production; same adapters, short waits.
  useFastPolling(app.t);
}, 240_000);

afterAll(async () => {
  await app?.close();
  await Promise.all([x, masto, threads, li].map((s) => s?.close()));
  await pds?.close();
});

describe('first run to one post on five networks', () => {
  it('starts from an empty data folder: no owner, no account, no network app', async () => {
    expect(app.t.server.sqlite.prepare('SELECT COUNT(*) AS n FROM users').get()).toEqual({ n: 0 });
    expect(accountsIn()).toEqual([]);
    for (const k of Object.keys(process.env)) expect(k).not.toMatch(/^HERALD_.*_CLIENT_(ID|SECRET)$/);
  });

  it('goes through the wizard and opens Settings → Networks', async () => {
    await page().goto(`${app.origin}/`);
    const owner = page().getByRole('form', { name: 'Create your Herald account' });
    await owner.getByLabel('E-mail').fill(OWNER.email);
    await owner.getByLabel('Password').fill(OWNER.password);
    await app.shot('fr-01-wizard-owner-1280');
    await owner.getByRole('button', { name: 'Create and continue' }).click();

    const secrets = page().getByRole('form', { name: 'Where Herald keeps secrets' });
    await expect
      .poll(() => secrets.locator('[data-keychain]').getAttribute('data-keychain'), { timeout: 30_000 })
      .toBe('available');
    await secrets.getByRole('button', { name: 'Continue' }).click();
    const defaults = page().getByRole('form', { name: 'Time zone and language' });
    await defaults.locator('[data-detected]').waitFor();
    await defaults.getByRole('button', { name: 'Continue' }).click();

    const networks = page().getByRole('region', { name: 'Connect networks' });
    await networks.waitFor();
    await networks.getByRole('button', { name: 'Set up network apps' }).click();
    await page().getByRole('heading', { name: 'Networks', exact: true }).waitFor();
    expect(page().url()).toMatch(/#\/networks$/);
    for (const name of ['X', 'Threads', 'LinkedIn']) {
      await expect.poll(() => panel(name).locator('[data-status]').textContent()).toBe('not configured');
    }
  }, 90_000);

  it('sets up the X, Threads and LinkedIn apps on Settings → Networks', async () => {
    const setUp = async (
      name: string,
      id: { label: string; value: string },
      secret: { label: string; value: string },
      redirect?: string,
    ) => {
      const p = panel(name);
      await p.getByLabel(id.label).fill(id.value);
      await p.getByLabel(secret.label).fill(secret.value);
      if (redirect) await p.getByLabel(/Own redirect URI/).fill(redirect);
      await p.getByRole('button', { name: 'Save', exact: true }).click();
      await expect.poll(() => p.locator('[data-status]').textContent()).toBe('configured');
      await p.getByRole('button', { name: 'Test' }).click();
      await expect.poll(() => p.locator('[data-test-result]').textContent(), { timeout: 20_000 }).toMatch(/^✓ /);
      expect(await p.locator('[data-source]').textContent()).toMatch(/saved in Herald's secret store/);
    };
    await setUp(
      'X',
      { label: 'OAuth 2.0 Client ID', value: X_APP.clientId },
      { label: 'OAuth 2.0 Client Secret', value: X_APP.clientSecret },
    );
    await setUp(
      'Threads',
      { label: 'Threads App ID', value: THREADS_APP.clientId },
      { label: 'Threads App Secret', value: THREADS_APP.clientSecret },
      THREADS_REDIRECT,
    );
    await expect
      .poll(() => panel('Threads').getByRole('textbox', { name: 'Threads redirect URI' }).inputValue())
      .toBe(THREADS_REDIRECT);
    await setUp(
      'LinkedIn',
      { label: 'Client ID', value: LI_APP.clientId },
      { label: 'Primary Client Secret', value: LI_APP.clientSecret },
    );
    // LinkedIn keeps Herald's own loopback redirect (the simulator takes it, like an app that allows it).
    expect(await panel('LinkedIn').getByRole('textbox', { name: 'LinkedIn redirect URI' }).inputValue()).toMatch(
      /^http:\/\/127\.0\.0\.1:\d+\//,
    );
    await app.shot('fr-02-networks-configured-1280');
  }, 90_000);

  it('connects one account on each of the five networks on the Accounts page', async () => {
    await page().getByRole('link', { name: 'Accounts', exact: true }).click();
    await page().getByRole('heading', { name: 'Accounts', exact: true }).waitFor();
    await page().getByText('No accounts yet').waitFor();

    // X, LinkedIn and Mastodon: the network's sign-in page in a new window, back to Herald's loopback callback.
    const inPopup = async (button: string, network: string, platform: string) => {
      const [popup] = await Promise.all([
        app.context.waitForEvent('page'),
        page().getByRole('button', { name: button }).click(),
      ]);
      await popup.getByRole('heading', { name: `${network} is connected` }).waitFor({ timeout: 30_000 });
      await popup.close();
      await expect.poll(accountsIn, { timeout: 30_000 }).toContain(platform);
    };
    await inPopup('Connect X', 'X', 'microblog');
    await inPopup('Connect LinkedIn', 'LinkedIn', 'problog');
    await page().getByLabel('Mastodon instance').fill(masto.url);
    await inPopup('Connect Mastodon', 'Mastodon', 'fedblog');

    // Threads: its consent page sends the browser to the person's HTTPS address (nothing runs
    // there); the address it was sent to is pasted back, as from the address bar.
    const [popup] = await Promise.all([
      app.context.waitForEvent('page'),
      page().getByRole('button', { name: 'Connect Threads' }).click(),
    ]);
    const sentTo = await new Promise<string>((resolve) => {
      const seen = (u: string) => {
        if (u.startsWith(THREADS_REDIRECT)) resolve(u);
      };
      popup.on('request', (r) => seen(r.url()));
      popup.on('framenavigated', (f) => seen(f.url()));
      seen(popup.url());
    });
    await popup.close();
    expect(new URL(sentTo).searchParams.get('code')).toMatch(/\S/);
    await page()
      .getByLabel(/Paste the address you were sent to/)
      .fill(sentTo);
    await page().getByRole('button', { name: 'Finish connecting' }).click();
    await expect.poll(accountsIn, { timeout: 30_000 }).toContain('threadblog');

    // Bluesky: handle, app password and the PDS's address.
    await page().getByLabel('Bluesky handle').fill(sky.handle);
    await page().getByLabel('Bluesky app password').fill(sky.appPassword);
    await page().getByLabel('Bluesky server').fill(pds.url);
    await page().getByRole('button', { name: 'Connect Bluesky' }).click();
    await expect.poll(accountsIn, { timeout: 30_000 }).toContain('skyblog');

    expect(accountsIn()).toEqual(['fedblog', 'microblog', 'problog', 'skyblog', 'threadblog']);
    await expect
      .poll(() => page().locator('tr[data-account] [data-status="active"]').count(), { timeout: 20_000 })
      .toBe(5);
    await app.shot('fr-03-accounts-five-1280');
  }, 180_000);

  it("publishes one post to all five and shows five links, one to each network's post", async () => {
    await page().getByRole('link', { name: 'Compose', exact: true }).click();
    await page()
      .getByRole('heading', { name: /draft$/ })
      .waitFor();
    for (const p of ['microblog', 'fedblog', 'threadblog', 'problog', 'skyblog'])
      await page().locator(`[data-preview="${p}"]`).waitFor();
    await page().getByRole('textbox', { name: 'Post 1', exact: true }).fill(TEXT);
    await page().getByRole('button', { name: 'Publish now' }).click();
    // Publish now asks first, by mouse as by Ctrl+Enter.
    await page()
      .getByRole('dialog', { name: 'Publish now?' })
      .getByRole('button', { name: 'Publish', exact: true })
      .click();

    const progress = page().getByLabel('Publishing progress');
    await progress.waitFor();
    const links = progress.getByRole('link', { name: 'open' });
    await expect.poll(() => links.count(), { timeout: 90_000, interval: 500 }).toBe(5);
    await page().getByText('Published to 5 accounts.').waitFor({ timeout: 30_000 });
    await app.shot('fr-04-published-1280');
    const hrefs = (await links.evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).href))).sort();

    // What each network holds: exactly one copy, and the link that leads to it.
    const xPosts = x.postsBy(x.state.users[0]!.username);
    expect(xPosts.map((p) => p.text)).toEqual([TEXT]);
    const mastoPosts = masto.statusesBy(masto.state.accounts[0]!.username);
    expect(mastoPosts.map((s) => s.text)).toEqual([TEXT]);
    const threadsPosts = threads.postsBy(threads.state.users[0]!.username);
    expect(threadsPosts.map((p) => p.text)).toEqual([TEXT]);
    const liPosts = li.postsBy(li.state.members[0]!.name);
    expect(liPosts.map((p) => p.commentary)).toEqual([TEXT]);
    const skyPosts = await pds.listPosts(sky.did);
    expect(skyPosts.map((r) => r.value.text)).toEqual([TEXT]);

    expect(hrefs).toEqual(
      [
        `https://x.com/${x.state.users[0]!.username}/status/${xPosts[0].id}`,
        `https://bsky.app/profile/${sky.handle}/post/${skyPosts[0].uri.split('/').pop()}`,
        `https://www.linkedin.com/feed/update/${liPosts[0].urn}`,
        `https://www.threads.net/@${threads.state.users[0]!.username}/post/${threadsPosts[0].shortcode}`,
        `${masto.url}/@${masto.state.accounts[0]!.username}/${mastoPosts[0].id}`,
      ]
        .map((u) => new URL(u).href)
        .sort(),
    );

    await page().setViewportSize({ width: 390, height: 844 });
    await app.shot('fr-05-published-390');
    const overflow = await page().evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await page().setViewportSize({ width: 1280, height: 800 });
  }, 180_000);

  it('nothing went wrong in the page along the way', () => {
    expect(app.problems).toEqual([]);
    expect(app.dialogs).toEqual([]);
  });
});
