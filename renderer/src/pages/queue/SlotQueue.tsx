/**
 * The queue of a social set: its coming slots in the set's time zone, each with its draft or
 * "Free". A draft is moved by dragging it onto another slot (HTML5 drag and drop) or, from the
 * keyboard, with the ↑ / ↓ buttons; a draft already in the target slot swaps places with it.
 */
import { useEffect, useState } from 'react';
import { client } from '../../api';
import { ErrorText, Loading } from '../../components/ui';
import { Time } from '../../components/time';
import { useAction, useLoad } from '../../hooks';
import { useHeld } from '../../components/undo';
import { EmptySlot, fillKey } from './EmptySlot';

type Item = Awaited<ReturnType<typeof client.listQueue>>['items'][number];

export function SlotQueue() {
  const sets = useLoad(() => client.listSocialSets().then((r) => r.socialSets));
  const [setId, setSetId] = useState<string>();
  useEffect(() => {
    if (!setId && sets.data?.length) setSetId((sets.data.find((s) => s.isDefault) ?? sets.data[0]).id);
  }, [sets.data, setId]);
  const queue = useLoad(
    () => (setId ? client.listQueue({ socialSetId: setId, count: 14 }) : Promise.resolve(undefined)),
    [setId],
  );
  const { busy, error, run } = useAction();
  const [dragging, setDragging] = useState<string>();
  const [over, setOver] = useState<string>();
  const held = useHeld();
  // A fill being emptied (Undo still possible) shows as the free slot it becomes.
  const items = (queue.data?.items ?? []).map((i) =>
    i.evergreen && setId && held(fillKey(setId, i.at)) ? { ...i, draft: null, evergreen: false } : i,
  );

  const move = (draftId: string, to: Item) =>
    run(async () => {
      if (to.draft?.id === draftId) return;
      await client.moveInQueue({ draftId, toSlot: to.at, socialSetId: setId });
      await queue.reload();
    });

  return (
    <div className="panel" data-testid="slot-queue">
      <div className="row" style={{ marginBottom: 8 }}>
        <label className="row" style={{ gap: 6 }}>
          Social set
          <select aria-label="Queue of social set" value={setId ?? ''} onChange={(e) => setSetId(e.target.value)}>
            {sets.data?.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </select>
        </label>
        {queue.data && (
          <span className="muted small" data-zone>
            Times in {queue.data.timeZone}
          </span>
        )}
        <a className="small" href="#/social-sets">
          Edit slots
        </a>
      </div>
      <ErrorText error={sets.error ?? queue.error ?? error} />
      {(sets.loading || queue.loading) && !queue.data && <Loading what="Loading the slots" />}
      {queue.data && items.length === 0 && (
        <p className="muted">
          This set has no slots yet. Add weekly slots on the <a href="#/social-sets">Social sets</a> page.
        </p>
      )}
      <ol className="slot-list" aria-label="Queue slots">
        {items.map((item, i) => {
          const key = `${item.at}|${item.draft?.id ?? ''}`;
          return (
            <li
              key={key}
              data-slot={item.at}
              data-draft={item.draft?.id ?? ''}
              className={`slot${item.draft ? ' taken' : ' free'}${over === key ? ' over' : ''}`}
              onDragOver={(e) => {
                if (dragging) {
                  e.preventDefault();
                  setOver(key);
                }
              }}
              onDragLeave={() => setOver((o) => (o === key ? undefined : o))}
              onDrop={(e) => {
                e.preventDefault();
                setOver(undefined);
                const id = e.dataTransfer.getData('text/plain') || dragging;
                setDragging(undefined);
                if (id) void move(id, item);
              }}
            >
              <span className="slot-time">
                <Time at={item.at} zone={item.timeZone} />
                {!item.inSlots && (
                  <span className="chip warn" title="No longer one of the set's slots">
                    off-slot
                  </span>
                )}
                {item.evergreen && (
                  <>
                    {' '}
                    <span className="evergreen-chip" data-evergreen-fill>
                      Evergreen repeat
                    </span>
                  </>
                )}
              </span>
              {item.draft ? (
                <span
                  className="slot-draft grow"
                  draggable={!busy}
                  aria-grabbed={dragging === item.draft.id}
                  onDragStart={(e) => {
                    e.dataTransfer.setData('text/plain', item.draft!.id);
                    e.dataTransfer.effectAllowed = 'move';
                    setDragging(item.draft!.id);
                  }}
                  onDragEnd={() => {
                    setDragging(undefined);
                    setOver(undefined);
                  }}
                >
                  <span aria-hidden="true" className="grip">
                    ⠿
                  </span>{' '}
                  <a href={`#/compose?draft=${item.draft.id}`}>{item.draft.title || 'Untitled'}</a>
                </span>
              ) : (
                <span className="muted grow">Free</span>
              )}
              {item.draft && (
                <span className="row nowrap" style={{ gap: 4 }}>
                  {item.evergreen && setId && (
                    <EmptySlot setId={setId} at={item.at} title={item.draft.title} busy={busy} reload={queue.reload} />
                  )}
                  <button
                    type="button"
                    aria-label={`Move ${item.draft.title} up`}
                    disabled={busy || i === 0}
                    onClick={() => void move(item.draft!.id, items[i - 1])}
                  >
                    ↑
                  </button>
                  <button
                    type="button"
                    aria-label={`Move ${item.draft.title} down`}
                    disabled={busy || i === items.length - 1}
                    onClick={() => void move(item.draft!.id, items[i + 1])}
                  >
                    ↓
                  </button>
                </span>
              )}
            </li>
          );
        })}
      </ol>
    </div>
  );
}
