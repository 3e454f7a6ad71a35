/**
 * Confirming a move: the draft's networks, each with its own new time (per-network times,
 * docs/decisions.md §13) in the view's zone, prefilled from where it was dropped; only the ticked
 * networks move. Scheduling again moves a pending entry (POST /microblog/schedule).
 */
import { useEffect, useRef, useState } from 'react';
import { client } from '../../api';
import { ErrorText, networkName } from '../../components/ui';
import { instantOf, wallOf } from '../../components/zone';
import { useAction } from '../../hooks';
import type { CalItem } from './model';

export interface Move {
  item: CalItem;
  date: string;
  /** the dropped hour, or keep each network's */ hour?: number;
}

export function MoveDialog({
  move,
  zone,
  onClose,
  onMoved,
}: {
  move: Move;
  zone: string;
  onClose(): void;
  onMoved(text: string): void;
}) {
  const initial = () =>
    Object.fromEntries(
      move.item.targets.map((t) => {
        const { time } = wallOf(zone, t.at);
        const hh = move.hour === undefined ? time.slice(0, 2) : String(move.hour).padStart(2, '0');
        return [t.accountId, { on: true, date: move.date, time: `${hh}:${time.slice(3)}` }];
      }),
    );
  const [times, setTimes] = useState(initial);
  const [jitter, setJitter] = useState(false);
  const { busy, error, run } = useAction();
  const ref = useRef<HTMLFormElement>(null);
  useEffect(() => {
    ref.current?.querySelector<HTMLElement>('input')?.focus();
  }, []);
  const chosen = move.item.targets.filter((t) => times[t.accountId]?.on);
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    void run(async () => {
      const targetAccounts = chosen.map((t) => {
        const v = times[t.accountId];
        const at = instantOf(zone, v.date, v.time);
        if (Number.isNaN(at)) throw new Error(`Give ${networkName(t.platform)} a date and a time`);
        return {
          accountId: t.accountId,
          platform: t.platform as 'microblog',
          scheduledFor: new Date(at).toISOString(),
        };
      });
      if (!targetAccounts.length) throw new Error('Tick at least one network to move');
      await client.schedule({ draftId: move.item.draftId!, targetAccounts, applyJitter: jitter });
      onMoved(`Moved “${move.item.title}” on ${chosen.map((t) => networkName(t.platform)).join(', ')}.`);
    });
  };
  return (
    <div
      className="modal-back"
      onKeyDown={(e) => {
        if (e.key === 'Escape') onClose();
      }}
      onMouseDown={(e) => {
        if (e.target === e.currentTarget) onClose();
      }}
    >
      <form className="panel modal" role="dialog" aria-modal="true" aria-label="Reschedule" ref={ref} onSubmit={submit}>
        <h2>Reschedule “{move.item.title}”?</h2>
        <p className="muted small">Times in {zone}.</p>
        {move.item.targets.map((t) => {
          const v = times[t.accountId];
          const set = (patch: Partial<typeof v>) => setTimes({ ...times, [t.accountId]: { ...v, ...patch } });
          const name = `${networkName(t.platform)}${t.username ? ` @${t.username}` : ''}`;
          return (
            <div className="row move-row" key={t.accountId} data-move={t.platform}>
              <label className="row move-net">
                <input type="checkbox" checked={v.on} onChange={(e) => set({ on: e.target.checked })} /> {name}
              </label>
              <input
                type="date"
                aria-label={`Date for ${name}`}
                value={v.date}
                disabled={!v.on}
                onChange={(e) => set({ date: e.target.value })}
                required={v.on}
              />
              <input
                type="time"
                aria-label={`Time for ${name}`}
                value={v.time}
                disabled={!v.on}
                onChange={(e) => set({ time: e.target.value })}
                required={v.on}
              />
            </div>
          );
        })}
        <label className="row small">
          <input type="checkbox" checked={jitter} onChange={(e) => setJitter(e.target.checked)} /> Add a random offset
          of up to 3 minutes (jitter)
        </label>
        <ErrorText error={error} />
        <div className="row" style={{ marginTop: 12 }}>
          <button className="primary" type="submit" disabled={busy || chosen.length === 0}>
            Move
          </button>
          <button type="button" onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </div>
  );
}
