/**
 * The queue: every scheduled draft with its full title and its networks, each network with its own
 * time and its own Cancel (asked first; the other networks stay scheduled), and Cancel all. The
 * Slots view is the social set's slot queue; the Calendar page shows the same posts by day.
 */
import { useMemo, useState } from 'react';
import { client } from '../api';
import { Empty, ErrorText, Loading, NetworkChips, Notice, Page, ViewTabs, networkName } from '../components/ui';
import { confirmAction } from '../components/undo';
import { Time } from '../components/time';
import { useAction, useLoad } from '../hooks';
import { SlotQueue } from './queue/SlotQueue';
import { SpendMeter } from '../components/SpendMeter';

type Entry = Awaited<ReturnType<typeof client.listSchedules>>['schedules'][number];
interface Group {
  draftId: string;
  title: string;
  first: string;
  entries: Entry[];
}

export function Queue() {
  const list = useLoad(async () => {
    const [s, a] = await Promise.all([client.listSchedules(), client.listAccounts()]);
    return { schedules: s.schedules, usernames: new Map(a.accounts.map((x) => [x.uuid, x.username])) };
  });
  const credits = useLoad(() => client.credits(), [list.data]);
  const { busy, error, run } = useAction();
  const [note, setNote] = useState<string>();
  const [view, setView] = useState<'list' | 'slots'>('list');
  const groups = useMemo(() => {
    const m = new Map<string, Group>();
    for (const e of list.data?.schedules ?? []) {
      const g = m.get(e.draftId) ?? {
        draftId: e.draftId,
        title: e.draftTitle || 'Untitled',
        first: e.scheduledFor,
        entries: [],
      };
      g.entries.push(e);
      if (e.scheduledFor < g.first) g.first = e.scheduledFor;
      m.set(e.draftId, g);
    }
    return [...m.values()].sort((a, b) => a.first.localeCompare(b.first));
  }, [list.data]);
  const who = (e: Entry) =>
    `${networkName(e.platform)}` +
    `${list.data?.usernames.get(e.accountUuid) ? ` @${list.data.usernames.get(e.accountUuid)}` : ''}`;

  const cancelOne = (g: Group, e: Entry) => {
    const others = g.entries.length - 1;
    if (
      !confirmAction(
        `Cancel “${g.title}” on ${who(e)}?` +
          (others
            ? ` It stays scheduled on ${others} other network${others === 1 ? '' : 's'}.`
            : ' Nothing else of it is scheduled: it becomes a draft again.'),
      )
    )
      return;
    void run(async () => {
      await client.cancelSchedule(g.draftId, e.accountUuid);
      // The list first, then the words: the note never shows beside a row it says is gone.
      await list.reload();
      setNote(`Cancelled “${g.title}” on ${who(e)}.`);
    });
  };
  const cancelAll = (g: Group) => {
    if (
      !confirmAction(
        `Cancel “${g.title}” on all ${g.entries.length} network${g.entries.length === 1 ? '' : 's'}? It ` +
          `becomes a draft again.`,
      )
    )
      return;
    void run(async () => {
      await client.cancelSchedule(g.draftId);
      await list.reload();
      setNote(`Cancelled “${g.title}” everywhere.`);
    });
  };

  return (
    <Page
      title="Queue"
      actions={
        <div className="row">
          <ViewTabs
            label="Queue view"
            views={[
              ['list', 'List'],
              ['slots', 'Slots'],
            ]}
            value={view}
            onChange={setView}
          />
          <a href="#/calendar">Calendar</a>
        </div>
      }
    >
      <ErrorText error={list.error ?? error} />
      <Notice className="ok">{note}</Notice>
      {credits.data?.warning && (
        <p className="error" role="alert" data-credits-warning>
          {credits.data.warning}
        </p>
      )}
      <SpendMeter spend={credits.data?.xSpend} balance={credits.data?.balance} />
      {view === 'slots' && <SlotQueue />}
      {view === 'list' && (
        <div className="panel">
          <div className="row" style={{ marginBottom: 8 }}>
            <span className="grow muted small">
              {groups.length ? `${groups.length} scheduled draft${groups.length === 1 ? '' : 's'}` : ''}
            </span>
          </div>
          {list.loading && !list.data ? (
            <Loading what="Loading the queue" />
          ) : groups.length === 0 ? (
            <Empty>
              Nothing scheduled. Schedule a post from <a href="#/compose">Compose</a>, or add drafts to a set's{' '}
              <a href="#/sets">slots</a>.
            </Empty>
          ) : (
            <ul className="queue-list" aria-label="Scheduled drafts">
              {groups.map((g) => (
                <li key={g.draftId} className="queue-draft" data-draft={g.draftId}>
                  <div className="row queue-head">
                    <div className="grow queue-title">
                      <a href={`#/compose?draft=${g.draftId}`}>
                        <b>{g.title}</b>
                      </a>
                    </div>
                    <NetworkChips platforms={g.entries.map((e) => e.platform)} />
                  </div>
                  <table className="queue-targets">
                    <thead>
                      <tr>
                        <th>Network</th>
                        <th>Fires at</th>
                        <th>Attempts</th>
                        <th />
                      </tr>
                    </thead>
                    <tbody>
                      {g.entries.map((e) => (
                        <tr key={e.id} data-entry={e.id} data-platform={e.platform}>
                          <td data-label="Network">
                            {who(e)}
                            {e.handedOffTo && (
                              <div className="muted small" data-handed-off>
                                Handed to {e.handedOffTo}, goes out at <Time at={e.scheduledFor} zone={e.timeZone} />
                              </div>
                            )}
                            {!e.handedOffTo && e.handOffNote && (
                              <div className="muted small" data-hand-off-note>
                                {e.handOffNote}
                              </div>
                            )}
                          </td>
                          <td data-label="Fires at">
                            <Time at={e.scheduledFor} zone={e.timeZone} />
                          </td>
                          <td data-label="Attempts">{e.attempts}</td>
                          <td>
                            <button
                              type="button"
                              className="danger"
                              disabled={busy}
                              aria-label={`Cancel on ${who(e)}`}
                              onClick={() => cancelOne(g, e)}
                            >
                              Cancel
                            </button>
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                  {g.entries.length > 1 && (
                    <button type="button" className="danger small" disabled={busy} onClick={() => cancelAll(g)}>
                      Cancel on all {g.entries.length} networks
                    </button>
                  )}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </Page>
  );
}
