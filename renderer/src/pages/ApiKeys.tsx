import { useState } from 'react';
import { client, setKey } from '../api';
import { Empty, ErrorText, Loading, Page, useScrollIntoView } from '../components/ui';
import { Time } from '../components/time';
import { confirmAction } from '../components/undo';
import { useAction, useLoad } from '../hooks';

export function ApiKeys() {
  const keys = useLoad(() => client.listApiKeys().then((r) => r.apiKeys));
  const { busy, error, run } = useAction();
  const [name, setName] = useState('');
  const [tier, setTier] = useState<'free' | 'pro' | 'enterprise'>('pro');
  const [shown, setShown] = useState<string | undefined>();
  const shownRef = useScrollIntoView<HTMLDivElement>(shown);
  const sessions = keys.data?.filter((k) => k.session) ?? [];
  const lasting = keys.data?.filter((k) => !k.session) ?? [];
  /** This browser's own key is gone: back to the sign-in page, as Sign out does. */
  const signOutHere = () => {
    setKey(undefined);
    window.location.reload();
  };
  const endSession = (k: { id: string; current: boolean }) => {
    const ask = k.current
      ? 'Sign out this browser? Its session ends at once and you sign in again to come back.'
      : 'Sign that browser out? It needs the password to come back.';
    if (confirmAction(ask))
      void run(async () => {
        await client.deleteApiKey(k.id);
        if (k.current) return signOutHere();
        await keys.reload();
      });
  };
  return (
    <Page title="API keys">
      <form
        className="panel row"
        onSubmit={(e) => {
          e.preventDefault();
          void run(async () => {
            const r = await client.createApiKey({ name, tier });
            setShown(r.apiKey.key);
            setName('');
            await keys.reload();
          });
        }}
      >
        <input
          className="grow"
          placeholder="Key name, e.g. My scripts"
          aria-label="Key name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          required
        />
        <select aria-label="Tier" value={tier} onChange={(e) => setTier(e.target.value as 'pro')}>
          <option value="free">free (100/h)</option>
          <option value="pro">pro (1000/h)</option>
          <option value="enterprise">enterprise</option>
        </select>
        <button className="primary" type="submit" disabled={busy}>
          Create key
        </button>
      </form>
      {shown && (
        <div className="panel" role="status" ref={shownRef}>
          <h2>Your new key</h2>
          <p className="muted">Copy it now: it is shown only this once.</p>
          <div className="key-once" data-testid="new-key">
            {shown}
          </div>
          <div className="row" style={{ marginTop: 8 }}>
            <button type="button" onClick={() => void navigator.clipboard?.writeText(shown)}>
              Copy
            </button>
            <button type="button" onClick={() => setShown(undefined)}>
              Done
            </button>
          </div>
        </div>
      )}
      <ErrorText error={keys.error ?? error} />
      <div className="panel" aria-label="Browser sessions" role="region">
        <h2>Browser sessions</h2>
        <p className="muted small">
          Each browser signed in to Herald holds a session. It ends 30 days after its last use, or when you sign out
          there or end it here.
        </p>
        {keys.loading && !keys.data && <Loading what="Loading sessions" />}
        {keys.data && sessions.length === 0 && <Empty>No browser is signed in.</Empty>}
        {sessions.length > 0 && (
          <table>
            <thead>
              <tr>
                <th>Session</th>
                <th>Last used</th>
                <th>Signed in</th>
                <th>Ends</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {sessions.map((k) => (
                <tr key={k.id} data-session={k.current ? 'current' : 'other'}>
                  <td data-label="Session">
                    <b>{k.current ? 'This browser' : 'Another browser'}</b>{' '}
                    <span className="muted small">
                      <code>{k.key}</code>
                    </span>
                  </td>
                  <td data-label="Last used" className="muted small">
                    <Time at={k.lastUsed} fallback="never" />
                  </td>
                  <td data-label="Signed in" className="muted small">
                    <Time at={k.createdAt} />
                  </td>
                  <td data-label="Ends" className="muted small">
                    {k.expiresAt ? (
                      <>
                        <Time at={k.expiresAt} /> unless used
                      </>
                    ) : (
                      ''
                    )}
                  </td>
                  <td>
                    <button type="button" className="danger" onClick={() => endSession(k)}>
                      {k.current ? 'Sign out here' : 'Sign that browser out'}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
      <div className="panel" aria-label="API keys" role="region">
        <h2>Keys for scripts and the CLI</h2>
        {keys.data && lasting.length === 0 && <Empty>No API keys yet. Create one above for scripts and the CLI.</Empty>}
        {lasting.length > 0 && (
          <table>
            <thead>
              <tr>
                <th>Name</th>
                <th>Key</th>
                <th>Tier</th>
                <th>Status</th>
                <th>Last used</th>
                <th>Created</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {lasting.map((k) => (
                <tr key={k.id} data-key={k.id}>
                  <td data-label="Name" className="wrap">
                    {k.name}
                  </td>
                  <td data-label="Key" className="wrap">
                    <code>{k.key}</code>
                  </td>
                  <td data-label="Tier">{k.tier}</td>
                  <td data-label="Status">{k.status}</td>
                  <td data-label="Last used" className="muted small">
                    <Time at={k.lastUsed} fallback="never" />
                  </td>
                  <td data-label="Created" className="muted small">
                    <Time at={k.createdAt} />
                  </td>
                  <td>
                    <button
                      type="button"
                      className="danger"
                      onClick={() => {
                        if (
                          confirmAction(
                            `Delete the key ${k.name}?` +
                              (k.current
                                ? ' This browser uses it: you are signed out here at once.'
                                : ' It stops working at once.'),
                          )
                        )
                          void run(async () => {
                            await client.deleteApiKey(k.id);
                            if (k.current) return signOutHere();
                            await keys.reload();
                          });
                      }}
                    >
                      Delete
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
    </Page>
  );
}
