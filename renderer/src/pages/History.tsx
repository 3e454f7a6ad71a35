/**
 * Every publication, failures explained, with retry and review; filtered on the server by network,
 * status, date range (whole days in the chosen zone) and text (title, account, link, error).
 * Each row is one network's post with its own link. The filters can come in the link
 * (#/history?status=failed&from=2026-12-01&to=2026-12-01&q=…), as the calendar's items link here.
 */
import { useEffect, useMemo, useState } from 'react';
import type { PublicationStatus, ScheduleEntry } from '../../../client/index';
import { addDays, untitledKind } from './calendar/model';

type Platform = ScheduleEntry['platform'];
import { client, openExternal } from '../api';
import { navigate } from '../router';
import { Empty, ErrorText, Loading, Notice, Page, StatusChip, ThreadPartsNote, networkName } from '../components/ui';
import { instantOf, useViewZone, ZonePicker } from '../components/zone';
import { Time } from '../components/time';
import { useAction, useLoad } from '../hooks';
import { NETWORK_LABELS } from '../../../text/counting';

const STATUSES: [string, string][] = [
  ['', 'Every status'],
  ['published', 'Published'],
  ['failed', 'Failed'],
  ['needs_review', 'Needs review'],
  ['missed', 'Missed'],
  ['publishing', 'Publishing'],
  ['pending', 'Pending'],
  ['cancelled', 'Cancelled'],
  ['skipped', 'Skipped'],
];

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * A row with no draft title: a direct post (the single-network endpoints), or one whose draft was
 * deleted since. Either way it shows the start of what was sent, so the row says which post it is.
 */
function UntitledRow({ draftDeleted, sentText }: { draftDeleted: boolean; sentText: string | null }) {
  const what = untitledKind(draftDeleted);
  if (!sentText?.trim()) return <span className="muted">({what.toLowerCase()})</span>;
  return (
    <>
      <span className="muted small" data-untitled={draftDeleted ? 'deleted-draft' : 'direct'}>
        {what}:{' '}
      </span>
      “{sentText.length >= 140 ? `${sentText.trimEnd()}…` : sentText}”
    </>
  );
}

export function History({ params }: { params?: URLSearchParams }) {
  const linked = {
    status: STATUSES.some(([v]) => v && v === params?.get('status')) ? params!.get('status')! : '',
    network: params?.get('network') && params.get('network')! in NETWORK_LABELS ? params.get('network')! : '',
    from: DAY.test(params?.get('from') ?? '') ? params!.get('from')! : '',
    to: DAY.test(params?.get('to') ?? '') ? params!.get('to')! : '',
    q: (params?.get('q') ?? '').slice(0, 200),
  };
  const [status, setStatus] = useState(linked.status);
  const [network, setNetwork] = useState(linked.network);
  const [from, setFrom] = useState(linked.from);
  const [to, setTo] = useState(linked.to);
  const [q, setQ] = useState(linked.q);
  // Another link while History is open (the calendar's, from a second window) sets its filters.
  const link = params?.toString() ?? '';
  useEffect(() => {
    if (!link) return;
    setStatus(linked.status);
    setNetwork(linked.network);
    setFrom(linked.from);
    setTo(linked.to);
    setQ(linked.q);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [link]);
  const zoneState = useViewZone();
  const zone = zoneState.zone;
  // The text filter asks the server once typing pauses.
  const [needle, setNeedle] = useState(linked.q.trim());
  useEffect(() => {
    const t = setTimeout(() => setNeedle(q.trim()), 250);
    return () => clearTimeout(t);
  }, [q]);
  const bounds = useMemo(() => {
    if (!zone) return undefined;
    const start = from ? instantOf(zone, from, '00:00') : Number.NaN;
    const end = to ? instantOf(zone, addDays(to, 1), '00:00') : Number.NaN;
    return {
      from: Number.isNaN(start) ? undefined : new Date(start).toISOString(),
      to: Number.isNaN(end) ? undefined : new Date(end).toISOString(),
    };
  }, [zone, from, to]);
  const list = useLoad(
    () =>
      bounds
        ? client
            .publishHistory({
              limit: 500,
              status: (status || undefined) as PublicationStatus | undefined,
              platform: (network || undefined) as Platform | undefined,
              from: bounds.from,
              to: bounds.to,
              q: needle || undefined,
            })
            .then((r) => r.publications)
        : Promise.resolve(undefined),
    [status, network, bounds, needle],
  );
  const { busy, error, run } = useAction();
  const [note, setNote] = useState<string>();
  const shown = list.data ?? [];
  const filtered = Boolean(network || from || to || q.trim() || status);
  const clear = () => {
    setStatus('');
    setNetwork('');
    setFrom('');
    setTo('');
    setQ('');
  };
  const act = (text: string, fn: () => Promise<unknown>) =>
    void run(async () => {
      await fn();
      await list.reload();
      setNote(text);
    });
  return (
    <Page title="History" actions={<ZonePicker {...zoneState} />}>
      <form className="panel filters" aria-label="Filter history" onSubmit={(e) => e.preventDefault()}>
        <input
          type="search"
          className="grow"
          placeholder="Search titles, text sent, accounts, links, reasons"
          aria-label="Search history"
          value={q}
          onChange={(e) => setQ(e.target.value)}
        />
        <select aria-label="Filter by network" value={network} onChange={(e) => setNetwork(e.target.value)}>
          <option value="">Every network</option>
          {Object.entries(NETWORK_LABELS).map(([id, label]) => (
            <option key={id} value={id}>
              {label}
            </option>
          ))}
        </select>
        <select aria-label="Filter by status" value={status} onChange={(e) => setStatus(e.target.value)}>
          {STATUSES.map(([v, label]) => (
            <option key={v} value={v}>
              {label}
            </option>
          ))}
        </select>
        <label className="row small">
          From
          <input type="date" aria-label="From date" value={from} onChange={(e) => setFrom(e.target.value)} />
        </label>
        <label className="row small">
          To
          <input type="date" aria-label="To date" value={to} onChange={(e) => setTo(e.target.value)} />
        </label>
        {filtered && (
          <button type="button" onClick={clear}>
            Clear filters
          </button>
        )}
      </form>
      <ErrorText error={list.error ?? error} />
      <Notice className="ok">{note}</Notice>
      <div className="panel">
        {(list.loading && !list.data) || !zone ? (
          <Loading what="Loading the history" />
        ) : shown.length === 0 ? (
          <Empty>{filtered ? 'Nothing matches these filters.' : 'Nothing published yet.'}</Empty>
        ) : (
          <>
            <p className="muted small" data-count>
              {shown.length === 500
                ? 'The newest 500 shown: narrow the filters to see older ones'
                : `${shown.length} shown`}
            </p>
            <table className="history">
              <thead>
                <tr>
                  <th>When</th>
                  <th>Draft</th>
                  <th>Network</th>
                  <th>Status</th>
                  <th>Link or reason</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {shown.map((p) => (
                  <tr key={p.id} data-publication={p.id} data-platform={p.platform}>
                    <td data-label="When" className="small">
                      <Time at={p.publishedAt ?? p.updatedAt} zone={zone} />
                    </td>
                    <td data-label="Draft" className="wrap">
                      {p.draftTitle ?? <UntitledRow draftDeleted={p.draftDeleted} sentText={p.sentText} />}
                    </td>
                    <td data-label="Network" className="wrap">
                      {networkName(p.platform)} <span className="muted">@{p.username}</span>
                    </td>
                    <td data-label="Status">
                      <StatusChip status={p.status} />
                      {p.attempts > 1 && <span className="muted small"> {p.attempts} attempts</span>}
                      <ThreadPartsNote status={p.status} parts={p.parts} />
                    </td>
                    <td data-label="Result" className="small wrap">
                      {p.url ? (
                        <a
                          href={p.url}
                          data-link={p.platform}
                          onClick={(e) => {
                            e.preventDefault();
                            openExternal(p.url!);
                          }}
                        >
                          Open on {networkName(p.platform)} ↗<span className="muted url"> {p.url}</span>
                        </a>
                      ) : (
                        <span className="error" data-status-text>
                          {p.statusText}
                        </span>
                      )}
                    </td>
                    <td>
                      <div className="row actions">
                        {p.canRetry && p.draftId && (
                          <button
                            type="button"
                            disabled={busy}
                            onClick={() =>
                              act(`Retried on ${networkName(p.platform)}.`, () =>
                                client.publish(p.draftId!, { accountIds: [p.accountId] }),
                              )
                            }
                          >
                            Retry
                          </button>
                        )}
                        {p.status === 'needs_review' && (
                          <>
                            <button
                              type="button"
                              disabled={busy}
                              onClick={() =>
                                act('Marked as published.', () =>
                                  client.resolveReview({ publicationId: p.id, outcome: 'published' }),
                                )
                              }
                            >
                              It went out
                            </button>
                            <button
                              type="button"
                              disabled={busy}
                              onClick={() =>
                                act('Marked as not published.', () =>
                                  client.resolveReview({ publicationId: p.id, outcome: 'not_published' }),
                                )
                              }
                            >
                              It did not
                            </button>
                          </>
                        )}
                        {p.draftId && (
                          <button type="button" onClick={() => navigate('compose', { draft: p.draftId! })}>
                            Open
                          </button>
                        )}
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </>
        )}
      </div>
    </Page>
  );
}
