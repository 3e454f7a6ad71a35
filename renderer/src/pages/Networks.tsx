import { useState } from 'react';
import { AnalyticsScopeSwitch } from './networks/AnalyticsScope';
import { client, openExternal } from '../api';
import { ErrorText, Loading, Page } from '../components/ui';
import { confirmAction } from '../components/undo';
import { useAction, useLoad } from '../hooks';
import { GUIDES, type AppPlatform, type Guide } from './networks/guides';

type NetworkApp = Awaited<ReturnType<typeof client.listNetworks>>['networks'][number];

const sourceText = (n: NetworkApp) =>
  n.source === 'env'
    ? 'from environment variables (they win over what is saved here)'
    : n.source === 'app'
      ? "saved in Herald's secret store"
      : 'not set up';

/** Settings → Networks: each network's guide, its redirect URI, and the app's client id and secret. */
export function Networks() {
  const networks = useLoad(() => client.listNetworks().then((r) => r.networks));
  const me = useLoad(() => client.settings().then((r) => r.settings));
  const isOwner = me.data?.dataDir !== undefined;
  return (
    <Page title="Networks">
      <p className="muted">
        Herald talks to X, Threads and LinkedIn through apps you create on their developer portals. Each network below
        says what to create, which redirect URI to paste there and where to find the client id and secret. Secrets are
        kept in the OS keychain (or Herald's private secret file), never in the database, logs or backups.
      </p>
      <ErrorText error={networks.error} />
      {networks.loading && !networks.data && <Loading what="Loading network apps" />}
      {!isOwner && me.data && (
        <p className="muted" role="note">
          Only the owner of this install can change these.
        </p>
      )}
      {GUIDES.map((g) => {
        const app = networks.data?.find((n) => n.platform === g.id);
        return (
          <NetworkPanel
            key={g.id}
            guide={app ? { ...g, name: app.label } : g}
            app={app}
            canEdit={isOwner}
            onChange={(n) => networks.setData((networks.data ?? []).map((x) => (x.platform === n.platform ? n : x)))}
          />
        );
      })}
    </Page>
  );
}

function NetworkPanel({
  guide,
  app,
  canEdit,
  onChange,
}: {
  guide: Guide;
  app?: NetworkApp;
  canEdit: boolean;
  onChange(n: NetworkApp): void;
}) {
  const { busy, error, run } = useAction();
  const [form, setForm] = useState({ clientId: '', clientSecret: '', redirectUri: '' });
  const [result, setResult] = useState<{ ok: boolean; message: string } | undefined>();
  const [copied, setCopied] = useState(false);
  const platform = guide.id as AppPlatform;
  const save = (e: React.FormEvent) => {
    e.preventDefault();
    void run(async () => {
      const r = await client.setNetwork(platform, {
        clientId: form.clientId,
        clientSecret: form.clientSecret,
        ...(form.redirectUri.trim() ? { redirectUri: form.redirectUri.trim() } : {}),
      });
      onChange(r.network);
      setForm({ clientId: '', clientSecret: '', redirectUri: '' });
      setResult(undefined);
    });
  };
  return (
    <section className="panel" data-network={guide.id} aria-label={guide.name}>
      <div className="row" style={{ justifyContent: 'space-between' }}>
        <h2 style={{ margin: 0 }}>{guide.name}</h2>
        {app && (
          <span className={`chip ${app.configured ? 'ok' : 'warn'}`} data-status>
            {app.configured ? 'configured' : 'not configured'}
          </span>
        )}
      </div>
      {app && (
        <p className="small" data-source>
          Source: <b>{sourceText(app)}</b>
          {app.clientId ? (
            <>
              {' '}
              · client id <code>{app.clientId}</code>
            </>
          ) : null}
        </p>
      )}
      {guide.portal && (
        <p className="small">
          On{' '}
          <a
            href={guide.portal.url}
            onClick={(e) => {
              e.preventDefault();
              openExternal(guide.portal!.url);
            }}
          >
            {guide.portal.label}
          </a>
          :
        </p>
      )}
      <ol className="small">
        {guide.steps.map((s) => (
          <li key={s}>{s}</li>
        ))}
      </ol>
      {app && app.scopes.length > 0 && (
        <p className="small">
          Permissions / scopes: <code>{app.scopes.join(' ')}</code>
        </p>
      )}
      {app && canEdit && <AnalyticsScopeSwitch app={app} onChange={onChange} />}
      {app && (
        <>
          <label className="field">
            Redirect URI to paste on the portal
            <div className="row nowrap" style={{ justifyContent: 'flex-start' }}>
              <input
                readOnly
                value={app.redirectUri}
                aria-label={`${guide.name} redirect URI`}
                onFocus={(e) => e.target.select()}
                style={{ flex: 1, minWidth: 0 }}
              />
              <button
                type="button"
                onClick={() => {
                  void navigator.clipboard?.writeText(app.redirectUri);
                  setCopied(true);
                  setTimeout(() => setCopied(false), 1500);
                }}
              >
                {copied ? 'Copied' : 'Copy'}
              </button>
            </div>
          </label>
          {guide.redirectNote && <p className="muted small">{guide.redirectNote}</p>}
          {canEdit && (
            <form onSubmit={save} aria-label={`${guide.name} app`}>
              <label className="field">
                {guide.idLabel}
                <input
                  value={form.clientId}
                  autoComplete="off"
                  required
                  onChange={(e) => setForm({ ...form, clientId: e.target.value })}
                />
              </label>
              <label className="field">
                {guide.secretLabel}
                <input
                  type="password"
                  value={form.clientSecret}
                  autoComplete="off"
                  required
                  onChange={(e) => setForm({ ...form, clientSecret: e.target.value })}
                />
              </label>
              <label className="field">
                Own redirect URI (optional{guide.id === 'threadblog' ? '; HTTPS, needed for Threads' : ''})
                <input
                  value={form.redirectUri}
                  placeholder="https://example.com/herald/callback"
                  onChange={(e) => setForm({ ...form, redirectUri: e.target.value })}
                />
              </label>
              <div className="row">
                <button className="primary" type="submit" disabled={busy}>
                  Save
                </button>
                <button
                  type="button"
                  disabled={busy || !app.configured}
                  onClick={() => void run(async () => setResult(await client.testNetwork(platform)))}
                >
                  Test
                </button>
                {app.source === 'app' && (
                  <button
                    type="button"
                    className="danger"
                    disabled={busy}
                    onClick={() => {
                      if (
                        confirmAction(
                          `Remove the ${guide.name} app from Herald? Accounts on ${guide.name} cannot ` +
                            `connect or refresh until it is set up again.`,
                        )
                      )
                        void run(async () => {
                          onChange((await client.removeNetwork(platform)).network);
                          setResult(undefined);
                        });
                    }}
                  >
                    Remove
                  </button>
                )}
              </div>
            </form>
          )}
          <ErrorText error={error} />
          {result && (
            <p className={result.ok ? 'ok' : 'bad'} role="status" data-test-result>
              {result.ok ? '✓ ' : '✗ '}
              {result.message}
            </p>
          )}
        </>
      )}
    </section>
  );
}
