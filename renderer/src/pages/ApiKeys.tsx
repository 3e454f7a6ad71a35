import { useState } from 'react';
import { client } from '../api';
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
  return (
    <Page title="API keys">
      <form className="panel row" onSubmit={(e) => { e.preventDefault(); void run(async () => { const r = await client.createApiKey({ name, tier }); setShown(r.apiKey.key); setName(''); await keys.reload(); }); }}>
        <input className="grow" placeholder="Key name, e.g. My scripts" aria-label="Key name" value={name} onChange={(e) => setName(e.target.value)} required />
        <select aria-label="Tier" value={tier} onChange={(e) => setTier(e.target.value as 'pro')}>
          <option value="free">free (100/h)</option><option value="pro">pro (1000/h)</option><option value="enterprise">enterprise</option>
        </select>
        <button className="primary" type="submit" disabled={busy}>Create key</button>
      </form>
      {shown && (
        <div className="panel" role="status" ref={shownRef}>
          <h2>Your new key</h2>
          <p className="muted">Copy it now: it is shown only this once.</p>
          <div className="key-once" data-testid="new-key">{shown}</div>
          <div className="row" style={{ marginTop: 8 }}>
            <button type="button" onClick={() => void navigator.clipboard?.writeText(shown)}>Copy</button>
            <button type="button" onClick={() => setShown(undefined)}>Done</button>
          </div>
        </div>
      )}
      <ErrorText error={keys.error ?? error} />
      <div className="panel">
        {keys.loading && !keys.data && <Loading what="Loading keys" />}
        {keys.data?.length === 0 && <Empty>No API keys yet. Create one above for scripts and the CLI.</Empty>}
        {!!keys.data?.length && <table>
          <thead><tr><th>Name</th><th>Key</th><th>Tier</th><th>Status</th><th>Last used</th><th>Created</th><th /></tr></thead>
          <tbody>
            {keys.data?.map((k) => (
              <tr key={k.id}>
                <td data-label="Name" className="wrap">{k.name}</td><td data-label="Key" className="wrap"><code>{k.key}</code></td><td data-label="Tier">{k.tier}</td><td data-label="Status">{k.status}</td>
                <td data-label="Last used" className="muted small"><Time at={k.lastUsed} fallback="never" /></td><td data-label="Created" className="muted small"><Time at={k.createdAt} /></td>
                <td><button type="button" className="danger" onClick={() => { if (confirmAction(`Delete the key ${k.name}? It stops working at once.`)) void run(async () => { await client.deleteApiKey(k.id); await keys.reload(); }); }}>Delete</button></td>
              </tr>
            ))}
          </tbody>
        </table>}
      </div>
    </Page>
  );
}
