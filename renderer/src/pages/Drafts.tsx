import { useMemo, useState } from 'react';
import type { DraftStatus } from '../../../client/index';
import { client } from '../api';
import { navigate } from '../router';
import { Empty, ErrorText, Loading, Page, StatusChip } from '../components/ui';
import { Time } from '../components/time';
import { confirmAction } from '../components/undo';
import { useAction, useLoad } from '../hooks';

const STATUSES = ['draft', 'scheduled', 'publishing', 'published', 'partially_published', 'failed'];

/** Drafts with search and status filters. */
export function Drafts() {
  const [status, setStatus] = useState('');
  const [q, setQ] = useState('');
  const list = useLoad(
    () => client.listDrafts(status ? { status: status as DraftStatus } : {}).then((r) => r.drafts),
    [status],
  );
  const { busy, error, run } = useAction();
  const shown = useMemo(() => {
    const needle = q.trim().toLowerCase();
    return (list.data ?? []).filter(
      (d) =>
        !needle ||
        d.title.toLowerCase().includes(needle) ||
        d.tweets.some((t) => t.plainText.toLowerCase().includes(needle)),
    );
  }, [list.data, q]);
  return (
    <Page
      title="Drafts"
      actions={
        <button className="primary" type="button" onClick={() => navigate('compose', { new: String(Date.now()) })}>
          New draft
        </button>
      }
    >
      <div className="panel row">
        <input
          className="grow"
          type="search"
          placeholder="Search titles and text"
          aria-label="Search drafts"
          value={q}
          onChange={(e) => setQ(e.target.value)}
        />
        <select aria-label="Filter by status" value={status} onChange={(e) => setStatus(e.target.value)}>
          <option value="">Every status</option>
          {STATUSES.map((s) => (
            <option key={s} value={s}>
              {s.replace(/_/g, ' ')}
            </option>
          ))}
        </select>
      </div>
      <ErrorText error={list.error ?? error} />
      <div className="panel">
        {list.loading && !list.data && <Loading what="Loading drafts" />}
        {shown.length > 0 && (
          <table>
            <thead>
              <tr>
                <th>Title</th>
                <th>Posts</th>
                <th>Status</th>
                <th>Created</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {shown.map((d) => (
                <tr key={d.id} data-draft={d.id}>
                  <td data-label="Title" className="wrap">
                    <a href={`#/compose?draft=${d.id}`}>
                      <b>{d.title}</b>
                    </a>
                    <div className="muted small clamp" title={d.tweets[0]?.plainText}>
                      {d.tweets[0]?.plainText}
                    </div>
                  </td>
                  <td data-label="Posts">{d.tweets.length}</td>
                  <td data-label="Status">
                    <StatusChip status={d.status} />
                  </td>
                  <td data-label="Created" className="small muted">
                    <Time at={d.createdAt} />
                  </td>
                  <td>
                    <button
                      type="button"
                      className="danger"
                      disabled={busy || d.status === 'publishing'}
                      onClick={() => {
                        if (confirmAction(`Delete the draft “${d.title}”? This cannot be undone.`))
                          void run(async () => {
                            await client.deleteDraft(d.id);
                            await list.reload();
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
        {list.data && shown.length === 0 && (
          <Empty>
            {list.data.length || status ? (
              'No draft matches.'
            ) : (
              <>
                No drafts yet. <a href="#/compose">Write one</a>.
              </>
            )}
          </Empty>
        )}
      </div>
    </Page>
  );
}
