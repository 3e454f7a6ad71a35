/**
 * Times in the composer are entered in the social set's zone (not the browser's): a
 * datetime-local value becomes an instant by the one DST rule (time/zones.ts); fire times are
 * shown by the one formatter (components/time.tsx).
 * Per-network times: each target account may get its own time (LinkedIn 08:00, X 12:00).
 */
import { memo } from 'react';
import { formatLocal, localToInstant, readLocal } from '../../../../time/index';

export { formatLocal };
export { useTimes } from '../../components/time';
import { networkName } from '../../components/ui';

/** "2026-12-01T09:00" in `zone` → epoch ms (NaN when it is not a date-time). */
export function instantIn(zone: string, value: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(value);
  if (!m) return Number.NaN;
  const [y, mo, d, h, mi] = m.slice(1).map(Number);
  try {
    return localToInstant(zone, y, mo, d, h, mi);
  } catch {
    return Number.NaN;
  }
}

type Target = { uuid: string; platform: string; username: string };

export function PerNetworkTimes({
  targets,
  times,
  fallback,
  onChange,
}: {
  targets: Target[];
  times: Record<string, string>;
  fallback: string;
  onChange: (accountId: string, value: string) => void;
}) {
  return (
    <div className="per-network" data-per-network style={{ marginTop: 8 }}>
      {targets.map((a) => (
        <label key={a.uuid} className="row small" style={{ gap: 6, marginBottom: 4 }}>
          <span style={{ minWidth: '16ch' }}>
            {networkName(a.platform)} @{a.username}
          </span>
          <input
            type="datetime-local"
            aria-label={`Time for ${networkName(a.platform)} @${a.username}`}
            value={times[a.uuid] ?? fallback}
            onChange={(e) => onChange(a.uuid, e.target.value)}
          />
        </label>
      ))}
    </div>
  );
}

/**
 * The DST rule in words when the typed time does not exist in the zone, or happens twice there.
 * Memoised: reading the zone's rules again on every key of the post showed in its profile.
 */
export const DstNote = memo(function DstNote({ zone, value }: { zone: string; value: string }) {
  const words = readLocal(zone, value.slice(0, 16))?.words;
  return words ? (
    <span className="warn-text" role="status" data-dst-note>
      {' '}
      {words}.
    </span>
  ) : null;
});
