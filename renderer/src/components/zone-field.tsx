/**
 * The zone picker of Settings and the first-run wizard: a searchable list (type any part of a
 * name: "berlin", "new york") of every zone the browser knows with its UTC offset now. A name
 * that is not a zone is said at once; the server refuses it too (400 naming the field).
 */
import { useId, useMemo } from 'react';
import { canonicalTimeZone, offsetText, zoneChoices } from '../../../time/index';

export function ZoneField({
  label,
  value,
  onChange,
  extra = [],
}: {
  label: string;
  value: string;
  onChange(zone: string): void;
  /** zones to offer even if the list lacks them */
  extra?: string[];
}) {
  const id = useId();
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const choices = useMemo(() => zoneChoices(Date.now(), [value, ...extra]), [extra.join()]);
  const zone = canonicalTimeZone(value);
  return (
    <label className="field zone-field">
      {label}
      <input
        list={id}
        required
        value={value}
        onChange={(e) => onChange(e.target.value)}
        autoComplete="off"
        spellCheck={false}
        aria-invalid={value !== '' && !zone}
        aria-describedby={`${id}-hint`}
        data-zone-field
        placeholder="Type a city or region"
      />
      <datalist id={id}>
        {choices.map((c) => (
          <option key={c.zone} value={c.zone} label={c.label} />
        ))}
      </datalist>
      <span id={`${id}-hint`} className={zone || !value ? 'muted small' : 'error small'} data-zone-hint>
        {zone
          ? `UTC${offsetText(zone, Date.now())} now`
          : value
            ? `"${value}" is not a time zone: choose one from the list`
            : ''}
      </span>
    </label>
  );
}
