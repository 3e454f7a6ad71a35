import { useMemo, useState } from 'react';
import { client } from '../api';
import { navigate } from '../router';
import { ErrorText, networkName, Page, when } from '../components/ui';
import { useAction, useLoad } from '../hooks';
import { SlotQueue } from './queue/SlotQueue';

type Entry = Awaited<ReturnType<typeof client.listSchedules>>['schedules'][number];

const dayKey = (d: Date) => `${d.getFullYear()}-${d.getMonth()}-${d.getDate()}`;

/** The days shown: a week from Monday, or the weeks covering a month. */
function days(anchor: Date, view: 'week' | 'month'): Date[] {
  const start = new Date(anchor.getFullYear(), anchor.getMonth(), view === 'month' ? 1 : anchor.getDate());
  start.setDate(start.getDate() - ((start.getDay() + 6) % 7));
  const count = view === 'week' ? 7 : 42;
  return Array.from({ length: count }, (_, i) => new Date(start.getFullYear(), start.getMonth(), start.getDate() + i));
}

export function Queue() {
  const list = useLoad(() => client.listSchedules().then((r) => r.schedules));
  const credits = useLoad(() => client.credits(), [list.data]);
  const { busy, error, run } = useAction();
  const [view, setView] = useState<'slots' | 'list' | 'week' | 'month'>('list');
  const [anchor, setAnchor] = useState(() => new Date());
  const byDay = useMemo(() => {
    const m = new Map<string, Entry[]>();
    for (const e of list.data ?? []) { const k = dayKey(new Date(e.scheduledFor)); m.set(k, [...(m.get(k) ?? []), e]); }
    return m;
  }, [list.data]);
  const cancel = (draftId: string) => run(async () => { await client.cancelSchedule(draftId); await list.reload(); });
  const move = (n: number) => { const d = new Date(anchor); if (view === 'month') d.setMonth(d.getMonth() + n); else d.setDate(d.getDate() + 7 * n); setAnchor(d); };
  const today = dayKey(new Date());
  return (
    <Page title="Queue" actions={
      <div className="row" role="tablist">
        {(['slots', 'list', 'week', 'month'] as const).map((v) => <button key={v} type="button" role="tab" aria-selected={view === v} className={view === v ? 'primary' : ''} onClick={() => setView(v)}>{v[0].toUpperCase() + v.slice(1)}</button>)}
      </div>}>
      <ErrorText error={list.error ?? error} />
      {credits.data?.warning && <p className="error" role="alert" data-credits-warning>{credits.data.warning}</p>}
      {view === 'slots' && <SlotQueue />}
      {view === 'list' && (
        <div className="panel">
          <table>
            <thead><tr><th>Fires at</th><th>Draft</th><th>Network</th><th>Attempts</th><th /></tr></thead>
            <tbody>
              {list.data?.map((e) => (
                <tr key={e.id} data-entry={e.id}>
                  <td>{when(e.scheduledFor)}</td>
                  <td><a href={`#/compose?draft=${e.draftId}`}>{e.draftTitle}</a></td>
                  <td>
                    {networkName(e.platform)}
                    {e.handedOffTo && <div className="muted" data-handed-off>Handed to {e.handedOffTo}, goes out at {when(e.scheduledFor)}</div>}
                    {!e.handedOffTo && e.handOffNote && <div className="muted" data-hand-off-note>{e.handOffNote}</div>}
                  </td>
                  <td>{e.attempts}</td>
                  <td><button type="button" className="danger" disabled={busy} onClick={() => void cancel(e.draftId)}>Cancel</button></td>
                </tr>
              ))}
            </tbody>
          </table>
          {list.data?.length === 0 && <p className="muted">Nothing scheduled.</p>}
        </div>
      )}
      {(view === 'week' || view === 'month') && (
        <div className="panel">
          <div className="row" style={{ marginBottom: 8 }}>
            <button type="button" onClick={() => move(-1)} aria-label="Previous">‹</button>
            <b className="grow" style={{ textAlign: 'center' }}>{anchor.toLocaleDateString(undefined, { month: 'long', year: 'numeric' })}</b>
            <button type="button" onClick={() => move(1)} aria-label="Next">›</button>
          </div>
          <div className="calendar" data-testid="calendar">
            {['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'].map((d) => <div key={d} className="muted small">{d}</div>)}
            {days(anchor, view).map((d) => (
              <div key={d.toISOString()} className={`day${dayKey(d) === today ? ' today' : ''}${view === 'month' && d.getMonth() !== anchor.getMonth() ? ' other' : ''}`}>
                <div className="muted">{d.getDate()}</div>
                {(byDay.get(dayKey(d)) ?? []).map((e) => (
                  <div key={e.id} className="entry" title={`${e.draftTitle} — ${networkName(e.platform)} at ${when(e.scheduledFor)}`} data-entry={e.id}>
                    <a href={`#/compose?draft=${e.draftId}`} onClick={(ev) => { ev.preventDefault(); navigate('compose', { draft: e.draftId }); }}>
                      {new Date(e.scheduledFor).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' })} {e.draftTitle}
                    </a>
                  </div>
                ))}
              </div>
            ))}
          </div>
        </div>
      )}
    </Page>
  );
}
