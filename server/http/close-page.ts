/**
 * The page a browser tab shows at the end of connecting a network account: styled like the app
 * (light and dark), it says what happened and closes itself when the app opened it (the tab the
 * Accounts page opened), else tells the person to go back to Herald. Its one inline script is
 * allowed by its hash, so the page keeps a CSP that allows nothing else.
 */
import crypto from 'node:crypto';

const esc = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

const STYLE = [
  ':root{color-scheme:light ' +
    'dark;--bg:#f6f7f9;--panel:#fff;--text:#1c1f24;--muted:#667085;--border:#e3e6ea;--ok:#15803d;--bad:#c62828}',
  '@media (prefers-color-scheme:dark){:root{--bg:#0f1115;--panel:#171a21;--text:#e7e9ee;' +
    '--muted:#9aa3b2;--border:#2a2f3a;--ok:#4ade80;--bad:#f87171}}',
  'body{margin:0;background:var(--bg);color:var(--text);font:16px/1.5 system-ui,-apple-system,"Segoe ' +
    'UI",Roboto,sans-serif}',
  'main{max-width:520px;margin:12vh auto;padding:28px;background:var(--panel);border:1px solid ' +
    'var(--border);border-radius:14px}',
  'h1{font-size:22px;margin:0 0 12px}.brand{font-weight:700;margin-bottom:18px}.brand span{color:#4f46e5}',
  '.ok{color:var(--ok)}.bad{color:var(--bad)}.muted{color:var(--muted)}',
  '@media (max-width:560px){main{margin:16px;padding:20px}}',
].join('');

// Closes the tab a moment after it is read; browsers only let a script close a tab a script
// opened, so where that is refused the text already says what to do.
const SCRIPT = 'setTimeout(function(){window.close()},2500);';
const SCRIPT_HASH = crypto.createHash('sha256').update(SCRIPT).digest('base64');

export const CLOSE_PAGE_CSP =
  `default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-${SCRIPT_HASH}'; base-uri 'none'; ` +
  `form-action 'none'; frame-ancestors 'none'`;

export function closePage(network: string, ok: boolean, message: string): string {
  const title = ok ? `${esc(network)} is connected` : `${esc(network)} was not connected`;
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" ' +
    'content="width=device-width,initial-scale=1">' +
    `<title>${title} · Herald</title><style>${STYLE}</style></head><body><main>` +
    '<div class="brand">Herald<span>.</span></div>' +
    `<h1 class="${ok ? 'ok' : 'bad'}" data-outcome="${ok ? 'connected' : 'failed'}">${title}</h1><p>` +
    `${esc(message)}</p>` +
    `<p class="muted">` +
    `${ok ? 'Return to Herald: its Accounts page shows the account.' : 'Return to Herald to try again.'} ` +
    `This tab closes by itself; if it stays open, close it.</p>` +
    `<script>${SCRIPT}</script></main></body></html>`
  );
}
