/**
 * A social set's time zone and weekly queue slots, edited in the set's zone. The server checks
 * them (a bad time, slots less than 6 minutes apart) and its error names the slot.
 */
import { useEffect, useState } from 'react';
import { client } from '../../api';
import { ErrorText } from '../../components/ui';
import { useAction, useLoad } from '../../hooks';
import { zoneChoices } from '../../../../time/index';

const DAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

type Slot = { day: number; time: string };

export function SlotsEditor({
  setId,
  setName,
  timeZone,
  onSaved,
}: {
  setId: string;
  setName: string;
  timeZone: string;
  onSaved: () => void;
}) {
  const loaded = useLoad(() => client.getSlots(setId), [setId]);
  const [slots, setSlots] = useState<Slot[]>([]);
  const [zone, setZone] = useState(timeZone);
  const [saved, setSaved] = useState<string>();
  const { busy, error, run } = useAction();
  useEffect(() => {
    if (loaded.data) setSlots(loaded.data.slots);
  }, [loaded.data]);
  useEffect(() => setZone(timeZone), [timeZone]);
  const edit = (i: number, patch: Partial<Slot>) => {
    setSaved(undefined);
    setSlots((s) => s.map((x, j) => (j === i ? { ...x, ...patch } : x)));
  };
  const save = () =>
    run(async () => {
      if (zone !== timeZone) await client.updateSocialSet({ id: setId, timeZone: zone });
      const r = await client.setSlots(setId, { slots });
      setSlots(r.slots);
      setSaved(`Saved ${r.slots.length} slot(s) in ${r.timeZone}.`);
      onSaved();
    });
  return (
    <form
      className="slots-editor"
      data-slots-editor={setId}
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <h3 style={{ margin: '12px 0 6px' }}>Queue slots</h3>
      <label className="row" style={{ gap: 6, marginBottom: 8 }}>
        Time zone
        <input
          aria-label={`Time zone of ${setName}`}
          list="herald-zones"
          value={zone}
          onChange={(e) => {
            setSaved(undefined);
            setZone(e.target.value);
          }}
          style={{ minWidth: '16ch' }}
        />
      </label>
      {slots.map((s, i) => (
        <div className="slot-row" key={i} data-slot-row={i}>
          <select
            aria-label={`Slot ${i + 1} day`}
            value={s.day}
            onChange={(e) => edit(i, { day: Number(e.target.value) })}
          >
            {DAYS.map((d, j) => (
              <option key={d} value={j + 1}>
                {d}
              </option>
            ))}
          </select>
          <input
            type="time"
            aria-label={`Slot ${i + 1} time`}
            value={s.time}
            required
            onChange={(e) => edit(i, { time: e.target.value.slice(0, 5) })}
          />
          <button
            type="button"
            aria-label={`Remove slot ${i + 1}`}
            onClick={() => {
              setSaved(undefined);
              setSlots((x) => x.filter((_, j) => j !== i));
            }}
            title="Remove this slot"
          >
            ✕
          </button>
        </div>
      ))}
      {slots.length === 0 && !loaded.loading && (
        <p className="muted small">No slots: "Add to queue" needs at least one.</p>
      )}
      <div className="row">
        <button
          type="button"
          onClick={() => {
            setSaved(undefined);
            setSlots((s) => [...s, { day: s.length ? s[s.length - 1].day : 1, time: '09:00' }]);
          }}
        >
          Add slot
        </button>
        <button
          type="button"
          onClick={() => {
            setSaved(undefined);
            setSlots(
              [1, 2, 3, 4, 5].flatMap((day) => [
                { day, time: '09:00' },
                { day, time: '17:30' },
              ]),
            );
          }}
        >
          Weekdays 09:00 and 17:30
        </button>
        <button className="primary" type="submit" disabled={busy}>
          Save slots
        </button>
      </div>
      {saved && (
        <p className="muted small" role="status">
          {saved}
        </p>
      )}
      <ErrorText error={loaded.error ?? error} />
    </form>
  );
}

/** One searchable list of zones, with their UTC offsets now, for every editor's time-zone field. */
export function ZoneList() {
  const [zones] = useState(() => zoneChoices(Date.now()));
  return (
    <datalist id="herald-zones">
      {zones.map((z) => (
        <option key={z.zone} value={z.zone} label={z.label} />
      ))}
    </datalist>
  );
}
