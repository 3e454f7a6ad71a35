/**
 * The Electron main process as wired in main/desktop.ts, with Electron's modules replaced by
 * stand-ins (test/helpers/fake-electron.ts) and everything of Herald's real: the server boots
 * in-process on loopback with a real SQLite file, publishes to the X simulator, and the window,
 * IPC, session, tray and quit decisions are driven the way Electron would drive them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDesktop, type Desktop } from '../../main/desktop.js';
import { contentSecurityPolicy, webPreferences } from '../../main/security.js';
import { connectOAuth } from '../helpers/oauth-connect.js';
import { fakeElectron, type FakeWindow } from '../helpers/fake-electron.js';
import { urlTable } from '../helpers/main-urls.js';
import { jsonCaller, tempDir, type TestServer } from '../helpers/server.js';
import { startXSimulator, type XSimulator } from '../simulators/x.simulator.js';
import { formatTime } from '../../time/index.js';

const MAIN_DIR = path.resolve('main');
const X = { clientId: 'desk-x', clientSecret: 'desk-x-secret' };

let x: XSimulator;
let dataDir: string;
let fake: ReturnType<typeof fakeElectron>;
let desk: Desktop;
let win: FakeWindow;
let origin: string;

function serverOptions(dir: string) {
  return {
    env: {},
    overrides: {
      HERALD_DATA_DIR: dir,
      HERALD_PORT: '0',
      HERALD_LOG_LEVEL: 'silent',
      HERALD_SECRET_STORE: 'file',
      HERALD_MICROBLOG_API_URL: x.url,
      HERALD_MICROBLOG_AUTHORIZE_URL: x.authorizeUrl,
      HERALD_MICROBLOG_TOKEN_URL: x.tokenUrl,
      HERALD_MICROBLOG_CLIENT_ID: X.clientId,
      HERALD_MICROBLOG_CLIENT_SECRET: X.clientSecret,
    },
    announce: false,
  };
}

async function boot(f: ReturnType<typeof fakeElectron>, dir: string) {
  return startDesktop(f.modules, {
    here: MAIN_DIR,
    env: { HERALD_DATA_DIR: dir },
    server: serverOptions(dir),
    trayRefreshMs: 3_600_000,
  });
}

/** The server as the test helpers see it, for API calls. */
function api(): Pick<TestServer, 'call'> & { base: string } {
  const base = `${desk.server.url}/api/v1`;
  return {
    base,
    call: jsonCaller(base),
  };
}

const appSender = () => ({ id: win.webContents.id, url: `${origin}/#/compose` });

beforeAll(async () => {
  x = await startXSimulator(X);
  dataDir = tempDir('herald-desktop-');
  fake = fakeElectron({ userData: dataDir });
  desk = (await boot(fake, dataDir))!;
  win = fake.windows[0];
  origin = new URL(desk.server.url).origin;
}, 60_000);

afterAll(async () => {
  await desk?.server.close();
  await x?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('start-up', () => {
  it('a second instance quits at once without starting a server', async () => {
    const other = fakeElectron({ lock: false, userData: tempDir('herald-second-') });
    const r = await boot(other, other.app.getPath('userData'));
    expect(r).toBeUndefined();
    expect(other.app.quitCalls).toBe(1);
    expect(other.windows).toHaveLength(0);
  });

  it('boots the server in-process and opens one window on the UI it serves', async () => {
    const health = await fetch(`${desk.server.url}/api/v1/auth/setup`);
    expect(health.status).toBe(200);
    expect(fake.windows).toHaveLength(1);
    expect(win.url).toBe(`${desk.server.url}/`);
    expect(win.options).toMatchObject({ width: 1280, height: 800, show: false });
    await new Promise((r) => setTimeout(r, 0));
    expect(win.visible).toBe(true); // shown once ready, never blank
  });

  it('the window is isolated, sandboxed, without Node, with the preload that exists', () => {
    expect(win.options.webPreferences).toEqual(webPreferences(path.join(MAIN_DIR, 'preload.cjs')));
    expect(fs.existsSync(win.options.webPreferences.preload)).toBe(true);
  });

  it('every response gets the CSP; every permission request is refused', async () => {
    let headers: any;
    fake.session.headers!({ responseHeaders: { 'content-type': ['text/html'] } }, (r) => {
      headers = r.responseHeaders;
    });
    expect(headers['Content-Security-Policy']).toEqual([contentSecurityPolicy(origin)]);
    expect(headers['content-type']).toEqual(['text/html']);
    for (const permission of ['media', 'geolocation', 'notifications', 'clipboard-read', 'openExternal']) {
      let granted: boolean | undefined;
      fake.session.permissionRequest!({}, permission, (ok) => {
        granted = ok;
      });
      expect(granted).toBe(false);
    }
    expect(fake.session.permissionCheck!()).toBe(false);
  });
});

describe('navigation, new windows and external links, over the URL table', () => {
  it('has at least 25 URLs', () => {
    expect(urlTable('http://127.0.0.1:1').length).toBeGreaterThanOrEqual(25);
  });

  it("will-navigate and will-redirect are prevented unless the URL is the app's own", () => {
    for (const [url, want] of urlTable(origin)) {
      expect(win.webContents.fire('will-navigate', url), url).toBe(!want.navigate);
      expect(win.webContents.fire('will-redirect', url), url).toBe(!want.navigate);
    }
  });

  it('new windows are always denied; only safe https links go to the system browser', () => {
    fake.opened.length = 0;
    for (const [url] of urlTable(origin)) expect(win.webContents.openHandler!({ url })).toEqual({ action: 'deny' });
    expect(fake.opened).toEqual(
      urlTable(origin)
        .filter(([, w]) => w.external)
        .map(([u]) => u),
    );
  });

  it('webviews are refused, also in any other web contents the app creates', async () => {
    expect(win.webContents.fire('will-attach-webview', {}, {})).toBe(true);
    const { FakeWebContents } = await import('../helpers/fake-electron.js');
    const other = new FakeWebContents();
    fake.app.emit('web-contents-created', {}, other);
    expect(other.fire('will-attach-webview', {}, {})).toBe(true);
    expect(other.fire('will-navigate', 'https://evil.example/')).toBe(true);
    expect(other.openHandler!({ url: 'https://example.com/' })).toEqual({ action: 'deny' });
  });
});

describe('IPC', () => {
  const strangers = () => [
    { id: win.webContents.id + 100, url: `${origin}/` },
    { id: win.webContents.id, url: `${origin}/`, mainFrame: false },
    { id: win.webContents.id, url: 'https://evil.example/' },
    { id: win.webContents.id, url: undefined },
    { id: win.webContents.id, url: `http://localhost:${new URL(origin).port}/` },
  ];

  it("every handler refuses a sender that is not the app's own main frame", async () => {
    const channels = fake.channels();
    expect(channels.sort()).toEqual([
      'herald:config',
      'herald:get-start-at-login',
      'herald:notify',
      'herald:open-external',
      'herald:refresh-key',
      'herald:set-start-at-login',
    ]);
    for (const s of strangers()) {
      expect(fake.sendSync('herald:config', s)).toEqual({ baseUrl: '', apiKey: '' });
      for (const ch of channels.filter((c) => c !== 'herald:config')) {
        await expect(fake.invoke(ch, s, 'https://example.com/'), `${ch} from ${JSON.stringify(s)}`).rejects.toThrow(
          'refused',
        );
      }
    }
    expect(fake.opened.includes('https://example.com/') && fake.notifications.length).toBeFalsy();
  });

  it(
    'before the owner exists the UI gets the base URL and no key; after onboarding, refresh-key gives a ' +
      'working key',
    async () => {
      expect(fake.sendSync('herald:config', appSender())).toEqual({ baseUrl: `${desk.server.url}/api/v1`, apiKey: '' });
      const setup = await api().call('POST', '/auth/setup', {
        body: { email: 'owner@example.test', password: 'desktop password' },
      });
      expect(setup.status, setup.text).toBe(200);
      const key = (await fake.invoke('herald:refresh-key', appSender())) as string;
      expect(key).toMatch(/\S{20,}/);
      expect((await api().call('GET', '/me', { key })).status).toBe(200);
      expect(fake.sendSync('herald:config', appSender())).toEqual({
        baseUrl: `${desk.server.url}/api/v1`,
        apiKey: key,
      });
      // Asking again keeps the same key.
      expect(await fake.invoke('herald:refresh-key', appSender())).toBe(key);
    },
  );

  it('open-external opens only safe https URLs (OAuth pages included), nothing else', async () => {
    fake.opened.length = 0;
    expect(await fake.invoke('herald:open-external', appSender(), 'https://x.com/i/oauth2/authorize?client_id=a')).toBe(
      true,
    );
    for (const bad of [
      'http://x.com/',
      'javascript:alert(1)',
      'file:///etc/passwd',
      'https://127.0.0.1/',
      42,
      { toString: () => 'https://x.com/' },
    ]) {
      expect(await fake.invoke('herald:open-external', appSender(), bad)).toBe(false);
    }
    expect(fake.opened).toEqual(['https://x.com/i/oauth2/authorize?client_id=a']);
  });

  it('start at login is an option the UI can read and set', async () => {
    expect(await fake.invoke('herald:get-start-at-login', appSender())).toBe(false);
    expect(await fake.invoke('herald:set-start-at-login', appSender(), true)).toBe(true);
    expect(fake.app.loginItems.openAtLogin).toBe(true);
    expect(await fake.invoke('herald:set-start-at-login', appSender(), 'yes')).toBe(false);
    expect(fake.app.loginItems.openAtLogin).toBe(false);
  });

  it('notify shows an OS notification, cut to size', async () => {
    fake.notifications.length = 0;
    await fake.invoke('herald:notify', appSender(), 'T'.repeat(500), 'B'.repeat(1000));
    expect(fake.notifications).toEqual([{ title: 'T'.repeat(100), body: 'B'.repeat(300) }]);
  });
});

describe('tray, notifications and quitting', () => {
  let key: string;

  it('publishing shows an OS notification for each success and failure', async () => {
    key = desk.key();
    const c = await connectOAuth({ call: api().call } as TestServer, key, 'microblog');
    expect(c.status).toBe(200);
    fake.notifications.length = 0;
    const draft = (
      await api().call('POST', '/microblog/drafts', {
        key,
        body: { title: 'From the desktop', tweets: [{ content: 'Hello from the tray' }] },
      })
    ).body.draft.id;
    expect((await api().call('POST', '/microblog/publish', { key, body: { draftId: draft } })).status).toBe(200);
    x.faults.next({ kind: '503' }, { route: 'POST /2/tweets', times: 1 });
    const failing = (
      await api().call('POST', '/microblog/drafts', {
        key,
        body: { title: 'Will fail', tweets: [{ content: 'This one fails' }] },
      })
    ).body.draft.id;
    await api().call('POST', '/microblog/publish', { key, body: { draftId: failing } });
    // From the event stream (main/notifications.ts), as the UI's: the published one carries its URL.
    await expect.poll(() => fake.notifications.length).toBe(2);
    expect(fake.notifications).toEqual([
      { title: 'Published to X', body: expect.stringMatching(/^https:\/\/x\.com\//) },
      { title: 'Publishing to X failed', body: expect.stringContaining('X') },
    ]);
  });

  it('a kind switched off in settings shows no notification; switched on again, it does', async () => {
    expect((await api().call('PUT', '/settings', { key, body: { notifications: { published: false } } })).status).toBe(
      200,
    );
    fake.notifications.length = 0;
    const quiet = (
      await api().call('POST', '/microblog/drafts', {
        key,
        body: { title: 'Quiet', tweets: [{ content: 'No notification for this one' }] },
      })
    ).body.draft.id;
    expect((await api().call('POST', '/microblog/publish', { key, body: { draftId: quiet } })).status).toBe(200);
    x.faults.next({ kind: '503' }, { route: 'POST /2/tweets', times: 1 });
    const failing = (
      await api().call('POST', '/microblog/drafts', {
        key,
        body: { title: 'Still told', tweets: [{ content: 'Failures are still told' }] },
      })
    ).body.draft.id;
    await api().call('POST', '/microblog/publish', { key, body: { draftId: failing } });
    await expect.poll(() => fake.notifications.length).toBe(1);
    expect(fake.notifications[0].title).toBe('Publishing to X failed');
    expect((await api().call('PUT', '/settings', { key, body: { notifications: { published: true } } })).status).toBe(
      200,
    );
  });

  it('the tray menu shows the next scheduled post and the queue size', async () => {
    fake.tray.menus.length = 0;
    desk.refreshTray();
    expect(fake.tray.menus.at(-1)!.map((i) => i.label)).toEqual([
      'No posts scheduled',
      'Queue empty',
      'Open Herald',
      'Quit Herald (scheduled posts stop firing)',
    ]);
    const when = new Date(Date.now() + 2 * 86_400_000);
    for (const title of ['Later post', 'Next post']) {
      const id = (await api().call('POST', '/microblog/drafts', { key, body: { title, tweets: [{ content: title }] } }))
        .body.draft.id;
      const at = title === 'Next post' ? when : new Date(when.getTime() + 86_400_000);
      expect(
        (
          await api().call('POST', '/microblog/schedule', {
            key,
            body: { draftId: id, scheduledFor: at.toISOString(), applyJitter: false },
          })
        ).status,
      ).toBe(200);
    }
    desk.refreshTray();
    const labels = fake.tray.menus.at(-1)!.map((i) => i.label);
    // In the user's zone (the setting), through the one formatter.
    const userZone = (await api().call('GET', '/me', { key })).body.timezone;
    expect(labels[0]).toBe(`Next: Next post — ${formatTime(when, { userZone })} (microblog)`);
    expect(labels[1]).toBe('2 posts scheduled');
    expect(fake.tray.tooltip).toBe(labels[0]);
  });

  it('closing the window keeps Herald running in the tray; the tray brings it back', async () => {
    expect(win.close()).toBe(false);
    expect(win.visible).toBe(false);
    expect((await fetch(`${desk.server.url}/api/v1/auth/setup`)).status).toBe(200);
    fake.clickTray('Open Herald');
    expect(win.visible).toBe(true);
    fake.tray.events.emit('click');
    expect(fake.windows).toHaveLength(1);
  });

  it('Quit from the tray quits: the window closes and the server shuts down before exit', async () => {
    fake.clickTray('Quit Herald');
    expect(fake.app.quitCalls).toBe(1);
    expect(desk.state.quitting).toBe(true);
    expect(win.close()).toBe(true);
    const url = desk.server.url;
    const willQuit = new (await import('../helpers/fake-electron.js')).FakeEvent();
    fake.app.emit('will-quit', willQuit);
    expect(willQuit.defaultPrevented).toBe(true);
    await expect.poll(() => fake.app.exitCode).toBe(0);
    await expect(fetch(`${url}/api/v1/auth/setup`)).rejects.toThrow();
  });

  it('on a restart the UI key is the same one (kept in the secret store)', async () => {
    const again = fakeElectron({ userData: dataDir });
    const d2 = (await boot(again, dataDir))!;
    try {
      expect(d2.key()).toBe(key);
    } finally {
      await d2.server.close();
    }
  });

  it('without a tray, closing the window quits', async () => {
    const dir = tempDir('herald-notray-');
    const noTray = fakeElectron({ userData: dir, trayFails: true });
    const d3 = (await boot(noTray, dir))!;
    try {
      expect(d3.state.hasTray).toBe(false);
      expect(noTray.windows[0].close()).toBe(true);
      noTray.app.emit('window-all-closed');
      expect(noTray.app.quitCalls).toBe(1);
    } finally {
      await d3.server.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
