/**
 * The world of the XSS e2e files (xss.test.ts, xss-csp.test.ts): 50 XSS payloads put everywhere
 * a user, a network or an error can put text: accounts whose names and usernames are payloads (from
 * the X and Mastodon simulators), templates, social sets and API keys named with them, media with
 * payload alt text, drafts titled and written with them (some scheduled, some published); a
 * listener records every CSP violation; signed in on the drafts list. Also the checks those tests
 * share: no payload ran, and how many payloads the page shows as text. The state is exported as
 * live bindings, set once `useXssWorld()` has started it.
 */
import { afterAll, beforeAll, expect } from 'vitest';
import {
  startMastodonSimulator,
  startXSimulator,
  xSimulatorSettings,
  type MastodonSimulator,
  type XSimulator,
} from '../simulators/index.js';
import { connectOAuth } from './oauth-connect.js';
import { pngBytes } from './png.js';
import { signIn, startUiApp, type UiApp } from './ui-app.js';

/** Each sets top.__xss (or opens a dialog) if it ever runs. */
export const PAYLOADS = [
  '<script>top.__xss=1</script>',
  '<img src=x onerror="top.__xss=1">',
  '<img src="x" onerror=alert(1)>',
  '<svg onload=top.__xss=1>',
  '<svg><script>top.__xss=1</script></svg>',
  '<body onload=top.__xss=1>',
  '<iframe src="javascript:top.__xss=1"></iframe>',
  '<iframe srcdoc="<script>top.__xss=1</script>"></iframe>',
  '<a href="javascript:top.__xss=1">click</a>',
  '<a href="JaVaScRiPt:top.__xss=1">x</a>',
  'javascript:top.__xss=1',
  '"><script>top.__xss=1</script>',
  "'><img src=x onerror=top.__xss=1>",
  '</textarea><script>top.__xss=1</script>',
  '</title><script>top.__xss=1</script>',
  '<details open ontoggle=top.__xss=1>',
  '<video><source onerror="top.__xss=1"></video>',
  '<audio src=x onerror=top.__xss=1>',
  '<input autofocus onfocus=top.__xss=1>',
  '<select autofocus onfocus=top.__xss=1></select>',
  '<marquee onstart=top.__xss=1>',
  '<object data="javascript:top.__xss=1"></object>',
  '<embed src="javascript:top.__xss=1">',
  '<math><mtext><table><mglyph><style><img src=x onerror=top.__xss=1>',
  '<form><button formaction=javascript:top.__xss=1>x</button></form>',
  '<isindex type=image src=1 onerror=top.__xss=1>',
  '<style>@import "javascript:top.__xss=1";</style>',
  '<div style="background:url(javascript:top.__xss=1)">',
  '<meta http-equiv="refresh" content="0;url=javascript:top.__xss=1">',
  '<base href="javascript:top.__xss=1//">',
  '<link rel=import href="data:text/html,<script>top.__xss=1</script>">',
  '<img src=x:alert(1) onerror=eval(src)>',
  '<img src=1 onerror=\\u0074op.__xss=1>',
  '&lt;script&gt;top.__xss=1&lt;/script&gt;',
  '&#60;img src=x onerror=top.__xss=1&#62;',
  '%3Cscript%3Etop.__xss=1%3C/script%3E',
  '<scr<script>ipt>top.__xss=1</scr</script>ipt>',
  '<<script>script>top.__xss=1<</script>/script>',
  '<SCRIPT SRC=//127.0.0.1:1/x.js></SCRIPT>',
  '<script>/*</script><img src=x onerror=top.__xss=1>*/',
  '{{constructor.constructor("top.__xss=1")()}}',
  '${top.__xss=1}',
  '<template><script>top.__xss=1</script></template>',
  '<noscript><p title="</noscript><img src=x onerror=top.__xss=1>">',
  '<svg><animate onbegin=top.__xss=1 attributeName=x dur=1s>',
  '<svg><a xlink:href="javascript:top.__xss=1"><text y=20>x</text></a></svg>',
  '<img src=x onerror=top.__xss=1//',
  '<x onmouseover=top.__xss=1 style=display:block;width:9999px;height:9999px>',
  '\u2028<script>top.__xss=1</script>\u2029',
  '<img src="x` `<script>top.__xss=1</script>"` `>',
];

const X_CLIENT = { clientId: 'xss-x', clientSecret: 'xss-x-secret' };

let x: XSimulator;
let masto: MastodonSimulator;
export let app: UiApp;
/** When the six scheduled drafts are due (ms): tomorrow at 12:00 UTC. */
export let scheduledFor: number;
let key: string;

export const page = () => app.page;

/** No payload ran and nothing tried to: the flag, dialogs, CSP violations, page errors. */
export async function clean(where: string) {
  await page().waitForTimeout(150); // let any onerror/onload fire
  const state = await page().evaluate(() => ({
    xss: (window as any).__xss,
    violations: (window as any).__violations ?? [],
  }));
  expect({ where, ...state, dialogs: app.dialogs, problems: app.problems }).toEqual({
    where,
    xss: undefined,
    violations: [],
    dialogs: [],
    problems: [],
  });
}

/** How many of the payloads appear on the page as text. */
export const shownAsText = () =>
  page().evaluate((ps) => {
    const text =
      document.body.innerText +
      [...document.querySelectorAll('input, textarea, option')]
        .map((e) => (e as HTMLInputElement).value ?? e.textContent)
        .join('\n');
    return ps.filter((p) => text.includes(p.trim())).length;
  }, PAYLOADS);

export async function open(hash: string, ready: string) {
  await page().goto(`${app.origin}/${hash}`);
  await page().locator(ready).first().waitFor();
}

/** Starts the world before the calling file's tests and closes it after. */
export function useXssWorld(): void {
  beforeAll(async () => {
    expect(PAYLOADS).toHaveLength(50);
    expect(new Set(PAYLOADS).size).toBe(50);
    [x, masto] = await Promise.all([startXSimulator(X_CLIENT), startMastodonSimulator()]);
    app = await startUiApp({ server: { settings: xSimulatorSettings(x, X_CLIENT) } });
    await app.context.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) => {
        ((window as any).__violations ??= []).push(`${e.violatedDirective} ${e.blockedURI}`);
      });
    });
    key = await app.t.login();
    const call = async (method: string, p: string, body?: unknown) => {
      const r = await app.t.call(method, p, { key, body });
      expect(r.status, `${method} ${p}: ${r.text}`).toBeLessThan(300);
      return r.body;
    };

    // Accounts whose names and usernames are payloads, as the networks report them.
    const hostile = PAYLOADS.slice(0, 6);
    x.setCurrentUser('herald_tester');
    await connectOAuth(app.t, key, 'microblog');
    for (const [i, p] of hostile.slice(0, 3).entries()) {
      x.addUser({ username: i === 0 ? p : `user${i}`, name: p });
      x.setCurrentUser(i === 0 ? p : `user${i}`);
      expect((await connectOAuth(app.t, key, 'microblog')).status).toBe(200);
    }
    for (const [i, p] of hostile.slice(3).entries()) {
      masto.addAccount({ username: i === 0 ? p : `masto${i}`, displayName: p });
      masto.setCurrentUser(i === 0 ? p : `masto${i}`);
      expect((await connectOAuth(app.t, key, 'fedblog', { instanceUrl: masto.url })).status).toBe(200);
    }

    // Templates, social sets and API keys named with payloads.
    for (const p of PAYLOADS.slice(6, 12))
      await call('POST', '/templates', { name: p, description: p, headContentPlain: p, tailContentPlain: p });
    for (const p of PAYLOADS.slice(12, 16)) await call('POST', '/social-sets', { name: p });
    for (const p of PAYLOADS.slice(16, 20)) await call('POST', '/auth/api-keys', { name: p, tier: 'free' });

    // Media with payload alt text, in a draft titled with a payload.
    const mediaIds: string[] = [];
    for (const p of PAYLOADS.slice(20, 28)) {
      const form = new FormData();
      form.append('files', new Blob([new Uint8Array(pngBytes(8, 8, [10, 20, 30]))], { type: 'image/png' }), 'a.png');
      const up = await fetch(`${app.t.base}/microblog/media/upload`, {
        method: 'POST',
        headers: { 'svc-key': key },
        body: form,
      }).then((r) => r.json());
      const id = up.data.uploads[0].mediaId as string;
      await call('PATCH', `/microblog/media/${id}`, { altText: p });
      mediaIds.push(id);
    }
    const sets = (await call('GET', '/social-sets')).socialSets as {
      id: string;
      isDefault: boolean;
      accounts: { accountId: string; platform: string; username: string }[];
    }[];
    const mainX = sets.find((s) => s.isDefault)!.accounts.find((a) => a.username === 'herald_tester')!.accountId;
    await call('POST', '/microblog/drafts', {
      title: PAYLOADS[28],
      selectedAccountIds: [mainX],
      tweets: [0, 1].map((i) => ({
        content: PAYLOADS[29 + i],
        media: mediaIds.slice(i * 4, i * 4 + 4).map((mediaId, k) => ({ mediaId, altText: PAYLOADS[20 + i * 4 + k] })),
      })),
    });

    // Drafts titled and written with the rest: some scheduled (queue, calendar), one published (history, credits).
    const drafts: string[] = [];
    for (const p of PAYLOADS.slice(31, 50)) {
      drafts.push(
        (
          await call('POST', '/microblog/drafts', {
            title: p,
            tweets: [{ content: p }, { content: `plain ${drafts.length}` }],
            selectedAccountIds: [mainX],
          })
        ).draft.id,
      );
    }
    // Tomorrow at noon UTC, not 24 h from now: the scheduler's jitter (±3 min) must not carry some
    // of the six across a midnight that ends a week or month in the calendar's zone.
    const noon = new Date(Date.now() + 86_400_000);
    noon.setUTCHours(12, 0, 0, 0);
    scheduledFor = noon.getTime();
    for (const id of drafts.slice(0, 6))
      await call('POST', '/microblog/schedule', { draftId: id, scheduledFor: noon.toISOString() });
    const published = (
      await call('POST', '/microblog/drafts', {
        title: PAYLOADS[49],
        tweets: [{ content: 'published plainly' }],
        selectedAccountIds: [mainX],
      })
    ).draft.id;
    await call('POST', '/microblog/publish', { draftId: published });
    const hostileX = sets.find((s) => s.isDefault)!.accounts.find((a) => a.username === PAYLOADS[0]);
    if (hostileX) {
      const d = (
        await call('POST', '/microblog/drafts', {
          title: 'to the hostile account',
          tweets: [{ content: 'hello' }],
          selectedAccountIds: [hostileX.accountId],
        })
      ).draft.id;
      await call('POST', '/microblog/publish', { draftId: d });
    }

    await signIn(app, '#/drafts');
  }, 120_000);

  afterAll(async () => {
    await app?.close();
    await Promise.all([x?.close(), masto?.close()]);
  });
}
