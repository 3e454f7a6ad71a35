/**
 * Electron main-process decisions, tested as units (Electron cannot run on CI machines):
 * navigation, new windows and openExternal over a table of URLs; the window's web preferences;
 * the CSP; IPC sender checks; the tray keep-alive logic.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  allowNavigation,
  allowOpenExternal,
  contentSecurityPolicy,
  trustedSender,
  webPreferences,
} from '../../main/security.js';
import { onWindowClose, trayMenu } from '../../main/tray.js';
import { urlTable } from '../helpers/main-urls.js';

const APP = 'http://127.0.0.1:4780';

const urls = urlTable(APP);

describe('navigation and external links', () => {
  it.each(urls)('%s', (url, expected) => {
    expect(allowNavigation(url, APP)).toBe(expected.navigate);
    expect(allowOpenExternal(url)).toBe(expected.external);
  });
  it('covers at least 25 URLs', () => {
    expect(urls.length).toBeGreaterThanOrEqual(25);
  });
});

describe('window', () => {
  it('is isolated, sandboxed, without Node or webviews', () => {
    const prefs = webPreferences('/app/main/preload.cjs');
    expect(prefs).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webviewTag: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
    });
  });

  it('has a CSP without unsafe-inline or unsafe-eval, connecting only to the local API', () => {
    const csp = contentSecurityPolicy(APP);
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
    const connect = csp.split('; ').find((d) => d.startsWith('connect-src'));
    expect(connect).toBe(`connect-src ${APP}`);
    expect(csp).toMatch(/default-src 'none'/);
    expect(csp).toMatch(/script-src 'self'/);
  });

  it('preload exposes only a few values and calls, and requires nothing but electron', () => {
    const src = fs.readFileSync(new URL('../../main/preload.cjs', import.meta.url), 'utf8').replace(/\/\/.*$/gm, '');
    const requires = [...src.matchAll(/require\(['"]([^'"]+)['"]\)/g)].map((m) => m[1]);
    expect(requires).toEqual(['electron']);
    expect(src).not.toMatch(/\b(fs|child_process|remote|shell)\b\s*[:.]/);
    const channels = [...src.matchAll(/'herald:[a-z-]+'/g)].map((m) => m[0]);
    expect(new Set(channels).size).toBeLessThanOrEqual(7);
  });
});

describe('IPC sender checks', () => {
  const ids = new Set([7]);
  const cases: [string, Parameters<typeof trustedSender>[0], boolean][] = [
    ['the app main frame', { frameUrl: `${APP}/compose`, isMainFrame: true, webContentsId: 7 }, true],
    ['a subframe of the app', { frameUrl: `${APP}/embed`, isMainFrame: false, webContentsId: 7 }, false],
    ['another webContents', { frameUrl: `${APP}/`, isMainFrame: true, webContentsId: 8 }, false],
    [
      'a foreign page in the app window',
      { frameUrl: 'https://evil.example/', isMainFrame: true, webContentsId: 7 },
      false,
    ],
    ['another port', { frameUrl: 'http://127.0.0.1:9999/', isMainFrame: true, webContentsId: 7 }, false],
    ['no frame', { frameUrl: undefined, isMainFrame: true, webContentsId: 7 }, false],
    ['a data: URL', { frameUrl: 'data:text/html,hi', isMainFrame: true, webContentsId: 7 }, false],
  ];
  it.each(cases)('%s', (_name, sender, ok) => {
    expect(trustedSender(sender, APP, ids)).toBe(ok);
  });
});

describe('tray keep-alive', () => {
  it('hides the window on close while a tray exists, and closes when quitting or without a tray', () => {
    expect(onWindowClose({ quitting: false, hasTray: true })).toBe('hide');
    expect(onWindowClose({ quitting: true, hasTray: true })).toBe('close');
    expect(onWindowClose({ quitting: false, hasTray: false })).toBe('close');
  });
  it('shows the next post and the queue size', () => {
    const items = trayMenu(
      { draftTitle: 'Launch day', scheduledFor: '2026-12-01T09:00:00.000Z', platform: 'skyblog' },
      3,
      (iso) => iso.slice(0, 16),
    );
    expect(items[0]).toEqual({ label: 'Next: Launch day — 2026-12-01T09:00 (skyblog)', enabled: false });
    expect(items[1].label).toBe('3 posts scheduled');
    expect(items.map((i) => i.action).filter(Boolean)).toEqual(['open', 'quit']);
    expect(trayMenu(undefined, 0, String)[0].label).toBe('No posts scheduled');
  });
});
