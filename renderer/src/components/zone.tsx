/**
 * Times shown in a social set's time zone, never the browser's (docs/decisions.md §13): the views offer
 * the zones of the person's sets, the default set's first, and remember the choice.
 */
import { useEffect, useState } from 'react';
import { client } from '../api';
import { instantOf, showIn, todayIn, wallOf } from './zone-time';

export { instantOf, showIn, todayIn, wallOf };

const KEY = 'herald.viewZone';

/** The zone the views show times in, and the zones to choose from. */
export function useViewZone() {
  const [zones, setZones] = useState<{ zone: string; label: string }[]>([]);
  const [zone, setZoneState] = useState<string | undefined>();
  useEffect(() => {
    let live = true;
    void client.listSocialSets().then((r) => {
      if (!live) return;
      const sets = [...r.socialSets].sort((a, b) => Number(b.isDefault) - Number(a.isDefault));
      const seen = new Map<string, string>();
      for (const s of sets) seen.set(s.timeZone, seen.has(s.timeZone) ? `${seen.get(s.timeZone)}, ${s.name}` : s.name);
      const list = [...seen].map(([z, names]) => ({ zone: z, label: `${z} (${names})` }));
      const system = Intl.DateTimeFormat().resolvedOptions().timeZone;
      if (list.length === 0) list.push({ zone: system, label: `${system} (this computer)` });
      setZones(list);
      const stored = localStorage.getItem(KEY);
      setZoneState(list.some((z) => z.zone === stored) ? stored! : list[0].zone);
    }, () => { if (live) setZoneState(Intl.DateTimeFormat().resolvedOptions().timeZone); });
    return () => { live = false; };
  }, []);
  const setZone = (z: string) => { localStorage.setItem(KEY, z); setZoneState(z); };
  return { zone, zones, setZone };
}

export function ZonePicker({ zone, zones, setZone }: ReturnType<typeof useViewZone>) {
  if (!zone) return null;
  if (zones.length <= 1) return <span className="muted small" data-zone={zone}>Times in {zone}</span>;
  return (
    <label className="row small zone-pick" data-zone={zone}>Times in
      <select aria-label="Time zone" value={zone} onChange={(e) => setZone(e.target.value)}>
        {zones.map((z) => <option key={z.zone} value={z.zone}>{z.label}</option>)}
      </select>
    </label>
  );
}
