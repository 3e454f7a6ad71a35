import { useRef, useState } from 'react';
import { client, openExternal } from '../api';
import { accountLabel, Empty, ErrorText, hasHandle, Loading, networkName, Page } from '../components/ui';
import { Time } from '../components/time';
import { confirmAction } from '../components/undo';
import { useAction, useLoad } from '../hooks';
import { HealthChip } from '../components/attention';
import { AnalyticsNote, analyticsScopeRefused, WithoutAnalyticsOffer } from './accounts/WithoutAnalytics';

/** Bluesky app passwords look like xxxx-xxxx-xxxx-xxxx; anything else is probably the main password. */
const APP_PASSWORD = /^[a-z0-9]{4}(-[a-z0-9]{4}){3}$/i;

type PastedPlatform = 'microblog' | 'threadblog' | 'problog';

/** Follower counts Herald does not read from these networks: shown as unknown, never as 0. */
const FOLLOWERS_UNKNOWN: Record<string, string> = {
  problog: 'not shared by LinkedIn',
  threadblog: 'not read from Threads',
};

/** The networks that connect through an app of the install's own (set up on the Networks page). */
const APP_NETWORKS = ['microblog', 'threadblog', 'problog'] as const;

/** Connect each network, see status, reconnect, remove. */
export function Accounts() {
  const accounts = useLoad(() => client.listAccounts().then((r) => r.accounts));
  const { busy, error, run } = useAction();
  const [instance, setInstance] = useState('');
  const [bsky, setBsky] = useState({ identifier: '', appPassword: '', service: '' });
  const [waiting, setWaiting] = useState<string | undefined>();
  const networks = useLoad(() => client.listNetworks().then((r) => r.networks));
  /** A flow whose network redirects to an address of the person's own: the address is pasted back. */
  const [pasting, setPasting] = useState<{ platform: PastedPlatform; address: string } | undefined>();
  const needsPaste = (platform: string) => {
    const uri = networks.data?.find((n) => n.platform === platform)?.redirectUri;
    return !!uri && !/^http:\/\/(127\.0\.0\.1|localhost|\[::1\])[:/]/.test(uri);
  };

  /** What the last connection did, in the server's words ("Already connected as @ada — tokens refreshed"). */
  const [notice, setNotice] = useState<string | undefined>();
  /** The Bluesky account the form reconnects, if any. */
  const [bskyFor, setBskyFor] = useState<string | undefined>();
  /** Set by "Stop waiting": the flow's poll gives up at its next turn. */
  const stop = useRef(false);
  /** LinkedIn refused its analytics scope: connecting without it is offered (for this account, if reconnecting). */
  const [noAnalytics, setNoAnalytics] = useState<{ reconnect?: string } | undefined>();

  /**
   * Opens the network's sign-in page and follows the flow until the browser comes back: the
   * account connected (or connected again), or why not (cancelled on the consent page, wrong app).
   * `reconnect`: the account whose tokens are replaced in place.
   */
  const oauth = (
    platform: 'microblog' | 'fedblog' | 'threadblog' | 'problog',
    reconnect?: string,
    instanceUrl = instance,
  ) =>
    run(async () => {
      setNotice(undefined);
      setNoAnalytics(undefined);
      const start =
        platform === 'microblog'
          ? await client.connectMicroblog({ reconnect })
          : platform === 'fedblog'
            ? await client.connectFedblog({ instanceUrl, reconnect })
            : platform === 'threadblog'
              ? await client.connectThreadblog({ reconnect })
              : await client.connectProblog({ reconnect });
      openExternal(start.authUrl);
      if (platform !== 'fedblog' && needsPaste(platform)) {
        setPasting({ platform, address: '' });
        return;
      }
      setWaiting(platform);
      stop.current = false;
      try {
        for (let i = 0; i < 600; i++) {
          await new Promise((r) => setTimeout(r, 1000));
          if (stop.current) return;
          const s = await client.connectionStatus(start.sessionId);
          if (s.status === 'waiting') continue;
          if (s.status === 'failed') {
            if (analyticsScopeRefused(s.error)) setNoAnalytics({ reconnect });
            throw new Error(s.error?.message ?? `${networkName(platform)} was not connected`);
          }
          setNotice(s.message);
          await accounts.reload();
          return;
        }
        throw new Error(`Nothing came back from ${networkName(platform)} in 10 minutes: connect again`);
      } finally {
        setWaiting(undefined);
      }
    });

  /** Reconnecting reuses the account (same network user): same row, same sets, same schedule. */
  const reconnect = (a: { uuid: string; platform: string; username: string; server_url: string | null }) => {
    if (a.platform === 'skyblog') {
      setBskyFor(a.uuid);
      setBsky({
        identifier: a.username,
        appPassword: '',
        service: a.server_url && !/bsky\.(social|network)/.test(a.server_url) ? a.server_url : '',
      });
      document.getElementById('bluesky-app-password')?.focus();
      return;
    }
    if (a.platform === 'fedblog') {
      const server = a.server_url ?? '';
      setInstance(server);
      if (server) void oauth('fedblog', a.uuid, server);
      return;
    }
    void oauth(a.platform as 'microblog', a.uuid);
  };
  const looksMain = bsky.appPassword.length > 0 && !APP_PASSWORD.test(bsky.appPassword.trim());

  const connectBluesky = (e: React.FormEvent) => {
    e.preventDefault();
    void run(async () => {
      setNotice(undefined);
      const r = await client.connectSkyblog({
        identifier: bsky.identifier,
        appPassword: bsky.appPassword,
        service: bsky.service || undefined,
        reconnect: bskyFor,
      });
      setNotice(r.message);
      setBsky({ identifier: '', appPassword: '', service: '' });
      setBskyFor(undefined);
      await accounts.reload();
    });
  };

  return (
    <Page title="Accounts">
      <div className="panel">
        <h2>Connected</h2>
        <ErrorText error={accounts.error} />
        {accounts.loading && !accounts.data && <Loading what="Loading accounts" />}
        {accounts.data && accounts.data.length === 0 && <Empty>No accounts yet: connect one below.</Empty>}
        {accounts.data && accounts.data.length > 0 && (
          <table>
            <thead>
              <tr>
                <th>Network</th>
                <th>Account</th>
                <th>Health</th>
                <th>Followers</th>
                <th>Connected</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {accounts.data.map((a) => (
                <tr key={a.uuid} data-account={a.uuid}>
                  <td data-label="Network">{networkName(a.platform)}</td>
                  <td data-label="Account" className="wrap">
                    <b>{a.display_name || a.username}</b>
                    {hasHandle(a.platform) && (
                      <>
                        {' '}
                        <span className="muted">@{a.username}</span>
                      </>
                    )}
                  </td>
                  <td data-label="Health">
                    <HealthChip account={a} />
                    <div className="muted small">{a.health.state === 'ok' ? '' : a.health.message}</div>
                    <AnalyticsNote analytics={a.analytics} />
                  </td>
                  <td data-label="Followers">
                    {FOLLOWERS_UNKNOWN[a.platform] ? (
                      <span className="muted small" data-followers-unknown title={FOLLOWERS_UNKNOWN[a.platform]}>
                        — {FOLLOWERS_UNKNOWN[a.platform]}
                      </span>
                    ) : (
                      a.followers_count
                    )}
                  </td>
                  <td data-label="Connected" className="muted small">
                    <Time at={a.created_at} />
                  </td>
                  <td>
                    <div className="row actions">
                      <button type="button" data-reconnect={a.platform} disabled={busy} onClick={() => reconnect(a)}>
                        Reconnect
                      </button>
                      <button
                        type="button"
                        className="danger"
                        disabled={busy}
                        onClick={() => {
                          if (
                            confirmAction(
                              `Remove ${accountLabel(a)} (${networkName(a.platform)})? Its tokens are ` +
                                `deleted from this computer, and its scheduled posts will not go out.`,
                            )
                          )
                            void run(async () => {
                              await client.deleteAccount(a.uuid);
                              await accounts.reload();
                            });
                        }}
                      >
                        Remove
                      </button>
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
      <div className="panel">
        <h2>Connect</h2>
        <ErrorText error={error} />
        {noAnalytics && error && (
          <WithoutAnalyticsOffer
            busy={busy}
            onConnect={() =>
              void run(async () => {
                await client.setNetwork('problog', { analyticsScope: false });
                await networks.reload();
                return true;
              }).then((ok) => (ok ? oauth('problog', noAnalytics.reconnect) : undefined))
            }
          />
        )}
        {notice && !error && (
          <p className="ok-text" role="status" data-connect-notice>
            {notice}
          </p>
        )}
        {pasting && (
          <form
            className="panel"
            aria-label="Paste the address"
            onSubmit={(e) => {
              e.preventDefault();
              void run(async () => {
                const r = await client.finishConnectPasted(pasting.platform, pasting.address);
                setPasting(undefined);
                setNotice(r.message);
                await accounts.reload();
              });
            }}
          >
            <label className="field">
              After allowing Herald on {networkName(pasting.platform)}, your browser opened your redirect address. Paste
              the address you were sent to (the whole address bar):
              <input
                value={pasting.address}
                placeholder="https://…?code=…&state=…"
                required
                onChange={(e) => setPasting({ ...pasting, address: e.target.value })}
              />
            </label>
            <div className="row">
              <button className="primary" type="submit" disabled={busy}>
                Finish connecting
              </button>
              <button type="button" onClick={() => setPasting(undefined)}>
                Cancel
              </button>
            </div>
          </form>
        )}
        {waiting && (
          <div role="status" data-waiting-for={waiting}>
            <p className="muted">
              Finish signing in to {networkName(waiting)} in your browser; this page updates when it is done.
              {waiting !== 'fedblog' && networks.data?.find((n) => n.platform === waiting)
                ? ` If ${networkName(waiting)} shows an error about the redirect URI, add ` +
                  `${networks.data.find((n) => n.platform === waiting)!.redirectUri} to your app on its ` +
                  `developer portal (the Networks page shows how), then connect again.`
                : ''}
            </p>
            <button
              type="button"
              onClick={() => {
                stop.current = true;
                setWaiting(undefined);
              }}
            >
              Stop waiting
            </button>
          </div>
        )}
        <div className="connect-apps">
          {APP_NETWORKS.map((p) => {
            const app = networks.data?.find((n) => n.platform === p);
            // Without its app the network refuses to start: say so, and where to set it up, instead of a button that
            // fails.
            const missing = app !== undefined && !app.configured;
            return (
              <div key={p} className="row connect-app" data-app-network={p} data-needs-app={missing || undefined}>
                <button
                  type="button"
                  data-connect={p}
                  disabled={busy || missing}
                  aria-describedby={missing ? `needs-app-${p}` : undefined}
                  onClick={() => void oauth(p)}
                >
                  Connect {networkName(p)}
                </button>
                {missing && (
                  <span id={`needs-app-${p}`} className="muted small">
                    {networkName(p)} needs an app of yours set up first:{' '}
                    <a href="#/networks">set it up on the Networks page</a>.
                  </span>
                )}
              </div>
            );
          })}
        </div>
        <div className="row connect-form">
          <label className="field grow">
            Mastodon instance
            <input placeholder="mastodon.social" value={instance} onChange={(e) => setInstance(e.target.value)} />
          </label>
          <button
            type="button"
            data-connect="fedblog"
            disabled={busy || !instance}
            onClick={() => void oauth('fedblog')}
          >
            Connect Mastodon
          </button>
        </div>
        <form onSubmit={connectBluesky} className="row connect-form" aria-label="Connect Bluesky">
          <label className="field">
            Bluesky handle
            <input
              placeholder="handle.bsky.social"
              autoComplete="username"
              value={bsky.identifier}
              onChange={(e) => setBsky({ ...bsky, identifier: e.target.value })}
              required
            />
          </label>
          <label className="field">
            Bluesky app password
            <input
              id="bluesky-app-password"
              placeholder="xxxx-xxxx-xxxx-xxxx"
              type="password"
              autoComplete="off"
              value={bsky.appPassword}
              onChange={(e) => setBsky({ ...bsky, appPassword: e.target.value })}
              required
            />
          </label>
          <label className="field">
            Bluesky server (optional)
            <input
              placeholder="https://bsky.social"
              value={bsky.service}
              onChange={(e) => setBsky({ ...bsky, service: e.target.value })}
            />
          </label>
          <button type="submit" data-connect="skyblog" disabled={busy}>
            Connect Bluesky
          </button>
        </form>
        {looksMain && (
          <p className="warn-text small" role="status" data-main-password>
            This does not look like an app password (four groups of four letters or digits, like abcd-efgh-ijkl-mnop).
            Use an app password, not your main password.
          </p>
        )}
        <p className="muted small">
          Bluesky: use an app password, never your main password. Create one in the Bluesky app under Settings → Privacy
          and security → App passwords (bsky.app/settings/app-passwords), name it “Herald”, and paste it here. You can
          revoke it there at any time without changing your password. If your account has sign-in codes (2FA) turned on,
          only an app password works.
        </p>
      </div>
    </Page>
  );
}
