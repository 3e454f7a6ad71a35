import { useState } from 'react';
import type { PublicationStatus } from '../../../client/index';
import { client, openExternal } from '../api';
import { navigate } from '../router';
import { ErrorText, networkName, Page, StatusChip, when } from '../components/ui';
import { useAction, useLoad } from '../hooks';

/** Every publication, failures explained, with retry and review. */
export function History() {
  const [status, setStatus] = useState('');
  const list = useLoad(() => client.publishHistory({ limit: 200, status: (status || undefined) as PublicationStatus | undefined }).then((r) => r.publications), [status]);
  const { busy, error, run } = useAction();
  return (
    <Page title="History" actions={
      <select aria-label="Filter by status" value={status} onChange={(e) => setStatus(e.target.value)}>
        <option value="">All</option><option value="published">Published</option><option value="failed">Failed</option><option value="needs_review">Needs review</option><option value="missed">Missed</option><option value="publishing">Publishing</option>
      </select>}>
      <ErrorText error={list.error ?? error} />
      <div className="panel">
        <table>
          <thead><tr><th>When</th><th>Draft</th><th>Network</th><th>Status</th><th>Result</th><th /></tr></thead>
          <tbody>
            {list.data?.map((p) => (
              <tr key={p.id} data-publication={p.id}>
                <td className="small">{when(p.publishedAt ?? p.updatedAt)}</td>
                <td>{p.draftTitle ?? <span className="muted">(direct post)</span>}</td>
                <td>{networkName(p.platform)} <span className="muted">@{p.username}</span></td>
                <td><StatusChip status={p.status} />{p.attempts > 1 && <span className="muted small"> {p.attempts} attempts</span>}</td>
                <td className="small">{p.url ? <a href={p.url} onClick={(e) => { e.preventDefault(); openExternal(p.url!); }}>{p.url}</a> : <span className="error" data-status-text>{p.statusText}</span>}</td>
                <td><div className="row nowrap">
                  {p.canRetry && p.draftId && <button type="button" disabled={busy} onClick={() => void run(async () => { await client.publish(p.draftId!, { accountIds: [p.accountId] }); await list.reload(); })}>Retry</button>}
                  {p.status === 'needs_review' && <>
                    <button type="button" disabled={busy} onClick={() => void run(async () => { await client.resolveReview({ publicationId: p.id, outcome: 'published' }); await list.reload(); })}>It went out</button>
                    <button type="button" disabled={busy} onClick={() => void run(async () => { await client.resolveReview({ publicationId: p.id, outcome: 'not_published' }); await list.reload(); })}>It did not</button>
                  </>}
                  {p.draftId && <button type="button" onClick={() => navigate('compose', { draft: p.draftId! })}>Open</button>}
                </div></td>
              </tr>
            ))}
          </tbody>
        </table>
        {list.data?.length === 0 && <p className="muted">Nothing published yet.</p>}
      </div>
    </Page>
  );
}
