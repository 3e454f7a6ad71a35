/**
 * The views that lay posts out by day (Calendar, History) show them in one zone: a social set's
 * (the default set's first; the user's when there is no set), chosen here and remembered; a
 * time shown in a zone other than the user's names it. Single times elsewhere go
 * through components/time.tsx.
 */
import { useEffect, useState } from 'react';
import { client } from '../api';
import { instantOf, todayIn, wallOf } from './zone-time';
import { useTimes } from './time';

export { instantOf, todayIn, wallOf };

const KEY = 'herald.viewZone';

/** The zone the views show times in, and the zones to choose from. */
export function useViewZone() {
  const { userZone } = useTimes();
  const [zones, setZones] = useState<{ zone: string; label: string }[]>([]);
  const [zone, setZoneState] = useState<string | undefined>();
  useEffect(() => {
    if (!userZone) return;
    let live = true;
    const choose = (list: { zone: string; label: string }[]) => {
      setZones(list);
      const stored = localStorage.getItem(KEY);
      setZoneState(list.some((z) => z.zone === stored) ? stored! : list[0].zone);
    };
    void client.listSocialSets().then(
      (r) => {
        if (!live) return;
        const sets = [...r.socialSets].sort((a, b) => Number(b.isDefault) - Number(a.isDefault));
        const seen = new Map<string, string>();
        for (const s of sets)
          seen.set(s.timeZone, seen.has(s.timeZone) ? `${seen.get(s.timeZone)}, ${s.name}` : s.name);
        const label = (z: string, names: string) => `${z} (${z === userZone ? 'your zone, ' : ''}${names})`;
        const list = [...seen].map(([z, names]) => ({ zone: z, label: label(z, names) }));
        if (list.length === 0) list.push({ zone: userZone, label: `${userZone} (your zone)` });
        choose(list);
      },
      () => {
        if (live) choose([{ zone: userZone, label: `${userZone} (your zone)` }]);
      },
    );
    return () => {
      live = false;
    };
  }, [userZone]);
  const setZone = (z: string) => {
    localStorage.setItem(KEY, z);
    setZoneState(z);
  };
  return { zone, zones, setZone };
}

export function ZonePicker({ zone, zones, setZone }: ReturnType<typeof useViewZone>) {
  if (!zone) return null;
  if (zones.length <= 1)
    return (
      <span className="muted small" data-zone={zone}>
        Times in {zone}
      </span>
    );
  return (
    <label className="row small zone-pick" data-zone={zone}>
      Times in
      <select aria-label="Time zone" value={zone} onChange={(e) => setZone(e.target.value)}>
        {zones.map((z) => (
          <option key={z.zone} value={z.zone}>
            {z.label}
          </option>
        ))}
      </select>
    </label>
  );
}
