/**
 * URLs the Electron window may meet, with what the app must do with each: navigate in the
 * window, or hand to the system browser (the one openExternal sink). Everything else is refused.
 * Built around the app's own origin (`http://127.0.0.1:<port>`).
 */
export type UrlCase = [url: string, expected: { navigate: boolean; external: boolean }];

export function urlTable(appOrigin: string): UrlCase[] {
  const port = Number(new URL(appOrigin).port);
  const stay = { navigate: true, external: false };
  const browser = { navigate: false, external: true };
  const refuse = { navigate: false, external: false };
  return [
    [`${appOrigin}/`, stay],
    [`${appOrigin}/compose?draft=1`, stay],
    [`${appOrigin}/#/settings`, stay],
    [`http://127.0.0.1:${port + 1}/`, refuse],
    [`http://localhost:${port}/`, refuse],
    [`https://127.0.0.1:${port}/`, refuse],
    [`http://user:pass@127.0.0.1:${port}/`, refuse],
    ['https://x.com/herald/status/1', browser],
    ['https://bsky.app/profile/alice.bsky.social', browser],
    ['https://mastodon.social/@alice/1', browser],
    ['https://www.linkedin.com/feed/update/urn:li:share:1', browser],
    ['https://x.com/i/oauth2/authorize?response_type=code&client_id=abc&state=xyz', browser],
    ['https://example.com:443/ok', browser],
    ['http://example.com/', refuse],
    ['https://example.com:8443/', refuse],
    ['https://user@example.com/', refuse],
    ['https://localhost/', refuse],
    ['https://app.localhost/', refuse],
    ['https://127.0.0.1/', refuse],
    ['https://[::1]/', refuse],
    ['https://0x7f000001/', refuse],
    ['https://intranet/', refuse],
    ['file:///etc/passwd', refuse],
    ['javascript:alert(1)', refuse],
    ['data:text/html,<script>alert(1)</script>', refuse],
    ['vbscript:msgbox', refuse],
    ['smb://attacker/share', refuse],
    ['ms-msdt:/id PCWDiagnostic', refuse],
    ['chrome://settings', refuse],
    ['devtools://devtools/bundled/inspector.html', refuse],
    ['not a url', refuse],
    ['', refuse],
    ['https://example.com./', refuse],
  ];
}
