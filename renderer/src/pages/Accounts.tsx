import { useState } from 'react';
import { client, openExternal } from '../api';
import { ErrorText, networkName, Page, StatusChip, when } from '../components/ui';
import { useAction, useLoad } from '../hooks';

type PastedPlatform = 'microblog' | 'threadblog' | 'problog';

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

  /** Opens the network's sign-in page and waits for the account to appear. */
  const oauth = (platform: 'microblog' | 'fedblog' | 'threadblog' | 'problog', reconnect?: string) => run(async () => {
    const before = new Set((accounts.data ?? []).map((a) => a.uuid));
    const start = platform === 'microblog' ? await client.connectMicroblog()
      : platform === 'fedblog' ? await client.connectFedblog({ instanceUrl: instance })
      : platform === 'threadblog' ? await client.connectThreadblog() : await client.connectProblog();
    openExternal(start.authUrl);
    if (platform !== 'fedblog' && needsPaste(platform)) {
      setPasting({ platform, address: '' });
      return;
    }
    setWaiting(platform);
    for (let i = 0; i < 300; i++) {
      await new Promise((r) => setTimeout(r, 1000));
      const now = (await client.listAccounts()).accounts;
      const added = now.some((a) => a.platform === platform && !before.has(a.uuid));
      const renewed = reconnect !== undefined && now.some((a) => a.uuid === reconnect && a.status === 'active');
      if (added || renewed) {
        accounts.setData(now);
        break;
      }
    }
    setWaiting(undefined);
  });

  const connectBluesky = (e: React.FormEvent) => {
    e.preventDefault();
    void run(async () => {
      await client.connectSkyblog({ identifier: bsky.identifier, appPassword: bsky.appPassword, service: bsky.service || undefined });
      setBsky({ identifier: '', appPassword: '', service: '' });
      await accounts.reload();
    });
  };

  return (
    <Page title="Accounts">
      <div className="panel">
        <h2>Connected</h2>
        <ErrorText error={accounts.error} />
        {accounts.data && accounts.data.length === 0 && <p className="muted">No accounts yet: connect one below.</p>}
        {accounts.data && accounts.data.length > 0 && (
          <table>
            <thead><tr><th>Network</th><th>Account</th><th>Status</th><th>Followers</th><th>Connected</th><th /></tr></thead>
            <tbody>
              {accounts.data.map((a) => (
                <tr key={a.uuid} data-account={a.uuid}>
                  <td>{networkName(a.platform)}</td>
                  <td><b>{a.display_name || a.username}</b> <span className="muted">@{a.username}</span></td>
                  <td><StatusChip status={a.status} /></td>
                  <td>{a.followers_count}</td>
                  <td className="muted small">{when(a.created_at)}</td>
                  <td><div className="row nowrap">
                    {a.status === 'needs_reauth' && a.platform !== 'skyblog' && a.platform !== 'fedblog' && <button type="button" disabled={busy} onClick={() => void oauth(a.platform as 'microblog', a.uuid)}>Reconnect</button>}
                    <button type="button" className="danger" disabled={busy} onClick={() => { if (confirm(`Remove @${a.username}? Its tokens are deleted from the keychain.`)) void run(async () => { await client.deleteAccount(a.uuid); await accounts.reload(); }); }}>Remove</button>
                  </div></td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
      <div className="panel">
        <h2>Connect</h2>
        <ErrorText error={error} />
        {pasting && <form className="panel" aria-label="Paste the address" onSubmit={(e) => { e.preventDefault(); void run(async () => { await client.finishConnectPasted(pasting.platform, pasting.address); setPasting(undefined); await accounts.reload(); }); }}>
          <label className="field">After allowing Herald on {networkName(pasting.platform)}, your browser opened your redirect address. Paste the address you were sent to (the whole address bar):
            <input value={pasting.address} placeholder="https://…?code=…&state=…" required onChange={(e) => setPasting({ ...pasting, address: e.target.value })} />
          </label>
          <div className="row"><button className="primary" type="submit" disabled={busy}>Finish connecting</button><button type="button" onClick={() => setPasting(undefined)}>Cancel</button></div>
        </form>}
        {waiting && <p className="muted" role="status">Finish signing in to {networkName(waiting)} in your browser; this page updates when it is done.</p>}
        <div className="row" style={{ marginBottom: 16 }}>
          <button type="button" data-connect="microblog" disabled={busy} onClick={() => void oauth('microblog')}>Connect X</button>
          <button type="button" data-connect="threadblog" disabled={busy} onClick={() => void oauth('threadblog')}>Connect Threads</button>
          <button type="button" data-connect="problog" disabled={busy} onClick={() => void oauth('problog')}>Connect LinkedIn</button>
        </div>
        <div className="row" style={{ marginBottom: 16 }}>
          <input placeholder="mastodon.social" aria-label="Mastodon instance" value={instance} onChange={(e) => setInstance(e.target.value)} />
          <button type="button" data-connect="fedblog" disabled={busy || !instance} onClick={() => void oauth('fedblog')}>Connect Mastodon</button>
        </div>
        <form onSubmit={connectBluesky} className="row" aria-label="Connect Bluesky">
          <input placeholder="handle.bsky.social" aria-label="Bluesky handle" value={bsky.identifier} onChange={(e) => setBsky({ ...bsky, identifier: e.target.value })} required />
          <input placeholder="app password" aria-label="Bluesky app password" type="password" value={bsky.appPassword} onChange={(e) => setBsky({ ...bsky, appPassword: e.target.value })} required />
          <input placeholder="https://bsky.social (optional)" aria-label="Bluesky server" value={bsky.service} onChange={(e) => setBsky({ ...bsky, service: e.target.value })} />
          <button type="submit" data-connect="skyblog" disabled={busy}>Connect Bluesky</button>
        </form>
        <p className="muted small">X, Threads and LinkedIn need an app of yours first: <a href="#/networks">Settings → Networks</a>.</p>
        <p className="muted small">Bluesky: create an app password in Settings → App passwords; never use your main password.</p>
      </div>
    </Page>
  );
}
