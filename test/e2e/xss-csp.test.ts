/**
 * The CSP of Herald's UI in real Chromium, on the world of the XSS payloads (xss.test.ts shows that
 * no payload runs): it is sent with the page and carries no unsafe-inline or unsafe-eval, and it
 * blocks inline scripts, inline handlers, javascript:, data: and blob: scripts and foreign
 * connections.
 */
import { describe, expect, it } from 'vitest';
import { app, page, useXssWorld } from '../helpers/xss-world.js';

useXssWorld();

describe('the CSP blocks what would run if markup ever got in', () => {
  it('is sent with the page and has no unsafe-inline or unsafe-eval', async () => {
    await page().goto(`${app.origin}/#/compose`);
    const res = await page().reload();
    const csp = res!.headers()['content-security-policy'];
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval/);
    expect(csp).toContain(`connect-src ${app.origin}`);
  });

  it(
    'inline scripts, inline handlers, javascript: URLs, ' + 'data:/blob: scripts and foreign fetches are refused',
    async () => {
      await page().locator('textarea').first().waitFor();
      const outcome = await page().evaluate(async () => {
        const w = window as any;
        const s = document.createElement('script');
        s.textContent = 'window.__inline = 1';
        document.body.append(s);
        document.body.insertAdjacentHTML(
          'beforeend',
          '<img src="/favicon.svg?nope" onload="window.__handler=1" onerror="window.__handler=1">',
        );
        const a = document.createElement('a');
        a.href = 'javascript:window.__jsurl=1';
        document.body.append(a);
        a.click();
        // (eval itself cannot be tried from here: DevTools evaluation is exempt from the CSP. The
        // header test above shows 'unsafe-eval' is absent.) Script from data: and blob: URLs:
        let importRefused = false;
        const dataUrl = 'data:text/javascript,window.__import=1';
        try {
          await import(/* @vite-ignore */ dataUrl);
        } catch {
          importRefused = true;
        }
        const workerRan = await new Promise<boolean>((resolve) => {
          try {
            const wk = new Worker(URL.createObjectURL(new Blob(['self.postMessage(1)'], { type: 'text/javascript' })));
            wk.onmessage = () => resolve(true);
            wk.onerror = () => resolve(false);
            setTimeout(() => resolve(false), 1000);
          } catch {
            resolve(false);
          }
        });
        let fetchRefused = false;
        try {
          await fetch('http://127.0.0.1:9/');
        } catch {
          fetchRefused = true;
        }
        await new Promise((r) => setTimeout(r, 300));
        return {
          inline: w.__inline,
          handler: w.__handler,
          jsurl: w.__jsurl,
          imported: w.__import,
          importRefused,
          workerRan,
          fetchRefused,
          violations: w.__violations as string[],
        };
      });
      expect(outcome).toMatchObject({
        inline: undefined,
        handler: undefined,
        jsurl: undefined,
        imported: undefined,
        importRefused: true,
        workerRan: false,
        fetchRefused: true,
      });
      expect(outcome.violations.some((v) => v.includes('blob'))).toBe(true);
      const kinds = new Set(outcome.violations.map((v) => v.split(' ')[0]));
      for (const k of ['script-src-elem', 'script-src-attr', 'worker-src', 'connect-src'])
        expect([...kinds]).toContain(k);
    },
  );
});
