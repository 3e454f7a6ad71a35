/**
 * The composer's evergreen switch: once the draft is saved, it can repeat in free queue slots
 * (every N days, up to M times, X getting the variants in turn). Reads and writes the draft's
 * evergreen settings on their own endpoint, apart from the draft's autosave.
 */
import { useEffect, useState } from 'react';
import { client } from '../../api';
import { useAction, useLoad } from '../../hooks';
import { ErrorText } from '../../components/ui';

export function EvergreenToggle({ draftId }: { draftId?: string }) {
  const current = useLoad(
    () => (draftId ? client.evergreen(draftId).then((r) => r.evergreen) : Promise.resolve(undefined)),
    [draftId],
  );
  const { busy, error, run } = useAction();
  const [days, setDays] = useState('30');
  const [variants, setVariants] = useState('');
  // The switch moves at the click; the server's answer confirms it (or puts it back on a failure).
  const [on, setOn] = useState<boolean | undefined>();
  useEffect(() => {
    if (!current.data) return;
    setDays(String(current.data.minDaysBetween));
    setVariants(current.data.variants.join('\n---\n'));
    setOn(current.data.enabled);
  }, [current.data]);
  if (!draftId) return null;
  const e = current.data;
  const save = (enabled: boolean) =>
    run(async () => {
      const r = await client.setEvergreen(draftId, {
        enabled,
        minDaysBetween: Math.max(1, Number(days) || 30),
        variants: variants
          .split(/\n---\n/)
          .map((v) => v.trim())
          .filter(Boolean),
      });
      current.setData(r.evergreen);
      return r;
    }).then((r) => {
      if (!r) setOn(e?.enabled);
    });
  return (
    <details className="panel" data-evergreen>
      <summary>Evergreen{e?.enabled ? ': on' : ''}</summary>
      <ErrorText error={current.error ?? error} />
      <label className="check">
        <input
          type="checkbox"
          checked={on ?? !!e?.enabled}
          disabled={busy || !e}
          onChange={(x) => {
            setOn(x.target.checked);
            void save(x.target.checked);
          }}
        />{' '}
        Repeat in free queue slots
      </label>
      <label className="field">
        Days between repeats
        <input
          aria-label="Days between repeats"
          type="number"
          min={1}
          value={days}
          onChange={(x) => setDays(x.target.value)}
        />
      </label>
      <label className="field">
        Variants for X (separated by a line with ---)
        <textarea aria-label="Variants for X" rows={3} value={variants} onChange={(x) => setVariants(x.target.value)} />
      </label>
      {e && (
        <p className="muted small">
          {e.repeats} repeat(s) so far{e.stalled ? ` · ${e.stalled}` : ''}
        </p>
      )}
      <button type="button" disabled={busy || !e} onClick={() => void save(on ?? !!e?.enabled)}>
        Save evergreen
      </button>
    </details>
  );
}
