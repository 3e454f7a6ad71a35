/**
 * Times shown in a social set's time zone, never the browser's (decisions §10): the views offer
 * the zones of the person's sets, the default set's first, and remember the choice.
 */
import { useEffect, useState } from 'react';
import { client } from '../api';
import { formatLocal, localParts, localToInstant } from '../../../server/contracts/time';

const KEY = 'herald.viewZone';
const DAY = new Intl.DateTimeFormat('en-GB', { weekday: 'short', timeZone: 'UTC' });

/** "2026-11-30" and "09:00" of an instant in `zone`. */
export function wallOf(zone: string, iso: string | number): { date: string; time: string } {
  const { local } = formatLocal(zone, typeof iso === 'number' ? iso : Date.parse(iso));
  const [date, time] = local.split('T');
  return { date, time };
}

/** "Mon 30 Nov 2026, 09:00" of an instant in `zone`. */
export function showIn(zone: string, iso: string | number | null | undefined): string {
  if (iso === null || iso === undefined) return '';
  const { date, time } = wallOf(zone, iso);
  const [y, m, d] = date.split('-').map(Number);
  const day = new Date(Date.UTC(y, m - 1, d));
  return `${DAY.format(day)} ${day.toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' })}, ${time}`;
}

/** The instant of "2026-11-30" "09:00" in `zone` (NaN when either is not one). */
export function instantOf(zone: string, date: string, time: string): number {
  const d = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  const t = /^(\d{2}):(\d{2})$/.exec(time);
  if (!d || !t) return Number.NaN;
  try {
    return localToInstant(zone, Number(d[1]), Number(d[2]), Number(d[3]), Number(t[1]), Number(t[2]));
  } catch {
    return Number.NaN;
  }
}

/** Today's date in `zone`, "YYYY-MM-DD". */
export function todayIn(zone: string): string {
  const p = localParts(zone, Date.now());
  return `${p.year}-${String(p.month).padStart(2, '0')}-${String(p.day).padStart(2, '0')}`;
}

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
