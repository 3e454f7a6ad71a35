/**
 * The calendar: scheduled and published posts by month or week, in a social set's time zone,
 * each item with its networks and title; posts that did not go out (failed, missed, held for
 * review) on the day that happened, marked, with a link to them in History (where Retry is). Evergreen repeats that
 * filled a queue slot are marked, with one click (and Undo) to empty the slot again. A scheduled item is moved
 * by dragging it onto a day (month) or an hour (week), or with its Move button from the keyboard; either way a dialog
 * confirms the new times before anything changes.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { client, openExternal } from '../api';
import { Empty, ErrorText, Loading, NetworkChips, Notice, Page, ViewTabs, networkName } from '../components/ui';
import { instantOf, todayIn, useViewZone, ZonePicker } from '../components/zone';
import { Time, useTimes } from '../components/time';
import { useLoad } from '../hooks';
import {
  addDays,
  addMonths,
  buildItems,
  dayLabel,
  daysOf,
  PROBLEM_LABELS,
  PROBLEM_STATUSES,
  title,
  type CalItem,
} from './calendar/model';
import { MoveDialog, type Move } from './calendar/MoveDialog';
import { loadFills, markFills } from './calendar/fills';
import { EmptySlot, fillKey } from './queue/EmptySlot';
import { useHeld } from '../components/undo';

const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

/** History filtered to the item's day (and its status, when its networks share one), where Retry is. */
function historyLink(i: CalItem): string {
  const statuses = new Set(i.targets.map((t) => t.status));
  const q = new URLSearchParams({ from: i.date, to: i.date });
  if (statuses.size === 1) q.set('status', [...statuses][0]!);
  if (i.search) q.set('q', i.search.slice(0, 200));
  return `#/history?${q.toString()}`;
}
const HOURS = Array.from({ length: 24 }, (_, h) => h);

export function Calendar({ params }: { params: URLSearchParams }) {
  const zoneState = useViewZone();
  const zone = zoneState.zone;
  const times = useTimes();
  const locale = times.view?.locale;
  const [view, setView] = useState<'month' | 'week'>(params.get('view') === 'week' ? 'week' : 'month');
  const [anchor, setAnchor] = useState<string | undefined>(params.get('date') ?? undefined);
  // A link to another date (#/calendar?date=…) while the calendar is open moves it there.
  const linked = params.get('date');
  useEffect(() => {
    if (linked) setAnchor(linked);
  }, [linked]);
  const [dragging, setDragging] = useState<CalItem>();
  const [over, setOver] = useState<string>();
  const [move, setMove] = useState<Move>();
  const [note, setNote] = useState<string>();
  const today = zone ? todayIn(zone) : '';
  const at = anchor ?? today;
  const days = zone ? daysOf(at, view) : [];
  // Published posts, and posts that did not go out, of the days shown (whole days in the zone);
  // every pending entry.
  const range =
    zone && days.length
      ? {
          from: new Date(instantOf(zone, days[0], '00:00')).toISOString(),
          to: new Date(instantOf(zone, addDays(days[days.length - 1], 1), '00:00')).toISOString(),
        }
      : undefined;
  const data = useLoad(async () => {
    if (!range) return undefined;
    const [fills, s, h, a, ...problems] = await Promise.all([
      loadFills(),
      client.listSchedules(),
      client.publishHistory({ limit: 500, status: 'published', ...range }),
      client.listAccounts(),
      ...PROBLEM_STATUSES.map((status) => client.publishHistory({ limit: 200, status, ...range })),
    ]);
    return {
      schedules: s.schedules,
      published: [...h.publications, ...problems.flatMap((p) => p.publications)],
      usernames: new Map(a.accounts.map((x) => [x.uuid, x.username])),
      fills,
    };
  }, [range?.from, range?.to]);
  const held = useHeld();
  const built = useMemo(() => {
    if (!zone || !data.data) return [];
    const d = data.data;
    return markFills(buildItems(zone, d.schedules, d.published, d.usernames), d.fills);
  }, [zone, data.data]);
  // A fill being emptied (Undo still possible) is gone from the calendar already.
  const items = built.filter((i) => !(i.fill && held(fillKey(i.fill.setId, i.fill.at))));
  const byDay = useMemo(() => {
    const m = new Map<string, CalItem[]>();
    for (const i of items) m.set(i.date, [...(m.get(i.date) ?? []), i]);
    return m;
  }, [items]);

  // Opened on this month, the month view shows the current week, not the weeks above it.
  const scrolled = useRef(false);
  const loaded = !!(zone && data.data);
  useEffect(() => {
    if (!loaded || view !== 'month' || anchor !== undefined || scrolled.current) return;
    scrolled.current = true;
    const today = document.querySelector('.calendar.month .day.today');
    const r = today?.getBoundingClientRect();
    if (r && (r.bottom > window.innerHeight || r.top < 0)) today!.scrollIntoView?.({ block: 'center' });
  }, [loaded, view, anchor]);

  const step = (n: number) => setAnchor(view === 'month' ? addMonths(at, n) : addDays(at, 7 * n));
  const drop = (cell: string, date: string, hour?: number) => ({
    onDragOver: (e: React.DragEvent) => {
      if (dragging) {
        e.preventDefault();
        e.dataTransfer.dropEffect = 'move';
        setOver(cell);
      }
    },
    onDragLeave: () => setOver((o) => (o === cell ? undefined : o)),
    onDrop: (e: React.DragEvent) => {
      e.preventDefault();
      setOver(undefined);
      if (dragging) setMove({ item: dragging, date, hour });
      setDragging(undefined);
    },
  });

  const entry = (i: CalItem) => (
    <div
      key={i.key}
      className={`cal-item ${i.kind}${i.fill ? ' fill' : ''}`}
      data-item={i.draftId ?? i.key}
      data-kind={i.kind}
      data-fill={i.fill ? i.fill.at : undefined}
      title={
        `${i.title} — ` +
        i.targets
          .map((t) => {
            const problem = t.status
              ? ` ${PROBLEM_LABELS[t.status].toLowerCase()}${t.error ? `: ${t.error}` : ''}`
              : '';
            return `${networkName(t.platform)} ${times.clock(t.at, zone!)}${problem}`;
          })
          .join(', ')
      }
      // A fill holds its queue slot: it moves in the Queue, or is emptied here.
      draggable={i.kind === 'scheduled' && !i.fill}
      onDragStart={(e) => {
        e.dataTransfer.setData('text/plain', i.key);
        e.dataTransfer.effectAllowed = 'move';
        setDragging(i);
      }}
      onDragEnd={() => {
        setDragging(undefined);
        setOver(undefined);
      }}
    >
      <div className="cal-line">
        <span className="cal-time">
          <Time at={i.at} zone={zone} clock />
        </span>
        {i.kind === 'published' && (
          <span className="ok" aria-label="published">
            {' '}
            ✓
          </span>
        )}
        {i.kind === 'problem' && (
          <span className="bad" aria-label="did not go out">
            {' '}
            ✗
          </span>
        )}
        {i.fill && (
          <span className="evergreen-chip cal-evergreen" data-evergreen-fill title="An evergreen repeat in a free slot">
            Evergreen
          </span>
        )}
      </div>
      <div className="cal-title">{i.draftId ? <a href={`#/compose?draft=${i.draftId}`}>{i.title}</a> : i.title}</div>
      <NetworkChips platforms={i.targets.map((t) => t.platform)} />
      {i.kind === 'published' && i.targets.some((t) => t.url) && (
        <div className="cal-links">
          {i.targets
            .filter((t) => t.url)
            .map((t) => (
              <a
                key={t.accountId}
                className="small"
                href={t.url!}
                onClick={(e) => {
                  e.preventDefault();
                  openExternal(t.url!);
                }}
              >
                {networkName(t.platform)} ↗
              </a>
            ))}
        </div>
      )}
      {i.kind === 'problem' && (
        <div className="cal-problem small bad">
          {i.targets.map((t) => `${networkName(t.platform)} ${PROBLEM_LABELS[t.status!].toLowerCase()}`).join(' · ')}
        </div>
      )}
      {i.kind === 'problem' && (
        <a className="small cal-history" href={historyLink(i)}>
          {i.targets.some((t) => t.status !== 'needs_review') ? 'Retry in History' : 'Settle in History'}
        </a>
      )}
      {i.kind === 'scheduled' && !i.fill && (
        <button
          type="button"
          className="link-button small"
          aria-label={`Move ${i.title}`}
          onClick={() => setMove({ item: i, date: i.date })}
        >
          Move…
        </button>
      )}
      {i.fill && (
        <EmptySlot
          setId={i.fill.setId}
          at={i.fill.at}
          title={i.title}
          className="link-button small cal-empty-slot"
          reload={data.reload}
        />
      )}
    </div>
  );

  return (
    <Page
      title="Calendar"
      actions={
        <ViewTabs
          label="Calendar view"
          views={[
            ['month', 'Month'],
            ['week', 'Week'],
          ]}
          value={view}
          onChange={setView}
        />
      }
    >
      <ErrorText error={data.error} />
      <Notice className="ok">{note}</Notice>
      <div className="panel">
        <div className="row cal-nav">
          <button
            type="button"
            onClick={() => step(-1)}
            aria-label={view === 'month' ? 'Previous month' : 'Previous week'}
          >
            ‹
          </button>
          <b className="grow cal-title-bar" data-cal-title>
            {zone ? title(at, view, locale) : ''}
          </b>
          <button type="button" onClick={() => setAnchor(undefined)}>
            Today
          </button>
          <button type="button" onClick={() => step(1)} aria-label={view === 'month' ? 'Next month' : 'Next week'}>
            ›
          </button>
          <ZonePicker {...zoneState} />
        </div>
        {(!zone || (data.loading && !data.data)) && <Loading what="Loading the calendar" />}
        {zone && data.data && items.length === 0 && (
          <Empty>
            Nothing scheduled, published or failed on these days. Schedule a post from <a href="#/compose">Compose</a>.
          </Empty>
        )}
        {zone && data.data && view === 'month' && (
          <div className="calendar month" data-testid="calendar" data-view="month" aria-busy={data.loading}>
            {WEEKDAYS.map((d) => (
              <div key={d} className="cal-head muted small">
                {d}
              </div>
            ))}
            {days.map((d) => (
              <div
                key={d}
                data-day={d}
                className={
                  `day${d === today ? ' today' : ''}${d.slice(0, 7) !== at.slice(0, 7) ? ' other' : ''}` +
                  `${over === d ? ' over' : ''}`
                }
                {...drop(d, d)}
              >
                <div className="muted small">{Number(d.slice(8))}</div>
                {(byDay.get(d) ?? []).map(entry)}
              </div>
            ))}
          </div>
        )}
        {zone && data.data && view === 'week' && (
          <div className="calendar week" data-testid="calendar" data-view="week" aria-busy={data.loading}>
            <div className="cal-head" />
            {days.map((d) => (
              <div key={d} className={`cal-head small${d === today ? ' today' : ''}`}>
                {dayLabel(d, locale)}
              </div>
            ))}
            {HOURS.map((h) => [
              <div key={`h${h}`} className="cal-hour muted small">
                {String(h).padStart(2, '0')}
              </div>,
              ...days.map((d) => {
                const cell = `${d}T${h}`;
                return (
                  <div
                    key={cell}
                    data-day={d}
                    data-hour={h}
                    className={`slot-cell${over === cell ? ' over' : ''}`}
                    {...drop(cell, d, h)}
                  >
                    {(byDay.get(d) ?? []).filter((i) => i.hour === h).map(entry)}
                  </div>
                );
              }),
            ])}
          </div>
        )}
        {zone && data.data && (
          <ul className="cal-agenda" aria-label="Posts in this view">
            {days
              .filter((d) => view === 'week' || d.slice(0, 7) === at.slice(0, 7))
              .flatMap((d) =>
                (byDay.get(d) ?? []).map((i) => (
                  <li key={`a${i.key}`}>
                    <span className="small muted">{dayLabel(d, locale)}</span>
                    {entry(i)}
                  </li>
                )),
              )}
          </ul>
        )}
        <p className="muted small">
          Drag a scheduled post onto another {view === 'month' ? 'day' : 'hour'} (or use Move…) to reschedule it; you
          confirm the new time first.
        </p>
      </div>
      {move && zone && (
        <MoveDialog
          move={move}
          zone={zone}
          onClose={() => setMove(undefined)}
          onMoved={(text) => {
            setMove(undefined);
            void data.reload().finally(() => setNote(text));
          }}
        />
      )}
    </Page>
  );
}
