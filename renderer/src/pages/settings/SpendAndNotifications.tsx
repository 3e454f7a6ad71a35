/**
 * Settings → X pay-per-use (the price table, the monthly cap and what happens at it, the API
 * tier) and → Notifications (browser permission, asked on a click, and one switch per kind).
 * Both apply at once on the server.
 */
import { useEffect, useState } from 'react';
import { client, desktop } from '../../api';
import { useAction } from '../../hooks';
import { ErrorText } from '../../components/ui';
import { askNotificationPermission, notificationsSupported } from '../../notifications';

type Tier = 'pay_per_use' | 'free' | 'basic' | 'pro';
export interface SpendSettings {
  xPriceUsd: number;
  xPriceWithUrlUsd: number;
  xMediaMetadataPriceUsd: number;
  xReadPriceUsd: number;
  xMonthlyCapUsd: number | null;
  xCapAction: 'warn' | 'refuse';
  xTier: Tier;
}
type Kinds = { published: boolean; failed: boolean; missed: boolean; reconnect: boolean };

export function XSpendSettings({ current, onSaved }: { current?: SpendSettings; onSaved: () => void }) {
  const { busy, error, run } = useAction();
  const [form, setForm] = useState({
    xPriceUsd: '0.015',
    xPriceWithUrlUsd: '0.2',
    xMediaMetadataPriceUsd: '0.005',
    xReadPriceUsd: '0.001',
    xMonthlyCapUsd: '',
    xCapAction: 'warn' as 'warn' | 'refuse',
    xTier: 'pay_per_use' as Tier,
  });
  const [note, setNote] = useState<string | undefined>();
  const [loaded, setLoaded] = useState(false);
  useEffect(() => {
    if (current) setLoaded(true);
    if (current)
      setForm({
        xPriceUsd: String(current.xPriceUsd),
        xPriceWithUrlUsd: String(current.xPriceWithUrlUsd),
        xMediaMetadataPriceUsd: String(current.xMediaMetadataPriceUsd),
        xReadPriceUsd: String(current.xReadPriceUsd),
        xMonthlyCapUsd: current.xMonthlyCapUsd === null ? '' : String(current.xMonthlyCapUsd),
        xCapAction: current.xCapAction,
        xTier: current.xTier,
      });
  }, [current]);
  const save = () =>
    run(async () => {
      await client.updateSettings({
        xPriceUsd: Number(form.xPriceUsd),
        xPriceWithUrlUsd: Number(form.xPriceWithUrlUsd),
        xMediaMetadataPriceUsd: Number(form.xMediaMetadataPriceUsd),
        xReadPriceUsd: Number(form.xReadPriceUsd),
        xMonthlyCapUsd: form.xMonthlyCapUsd.trim() === '' ? null : Number(form.xMonthlyCapUsd),
        xCapAction: form.xCapAction,
        xTier: form.xTier,
      });
      setNote('Saved; applies at once.');
      onSaved();
    });
  return (
    <form
      className="panel"
      data-x-spend-settings
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <h2>X pay-per-use</h2>
      <p className="muted small">
        X charges each post request (each post of a thread is one); a post with a link costs more, and each image&apos;s
        alt text is a request of its own. Prices change: keep them as X&apos;s pricing page says.
      </p>
      {/* Editable once the saved values are in: typing into the defaults would be overwritten when they arrive. */}
      <fieldset disabled={!loaded} className="plain">
        <label className="field">
          Price per post (USD)
          <input
            aria-label="Price per post (USD)"
            type="number"
            step="0.001"
            value={form.xPriceUsd}
            onChange={(e) => setForm({ ...form, xPriceUsd: e.target.value })}
          />
        </label>
        <label className="field">
          Price per post with a link (USD)
          <input
            aria-label="Price per post with a link (USD)"
            type="number"
            step="0.001"
            value={form.xPriceWithUrlUsd}
            onChange={(e) => setForm({ ...form, xPriceWithUrlUsd: e.target.value })}
          />
        </label>
        <label className="field">
          Price per alt text (USD, a Media Metadata request)
          <input
            aria-label="Price per alt text (USD)"
            type="number"
            step="0.001"
            value={form.xMediaMetadataPriceUsd}
            onChange={(e) => setForm({ ...form, xMediaMetadataPriceUsd: e.target.value })}
          />
        </label>
        <label className="field">
          Price per post read (USD, for metrics)
          <input
            aria-label="Price per post read (USD)"
            type="number"
            step="0.001"
            value={form.xReadPriceUsd}
            onChange={(e) => setForm({ ...form, xReadPriceUsd: e.target.value })}
          />
        </label>
        <label className="field">
          Monthly spend cap (USD; empty for none)
          <input
            aria-label="Monthly spend cap (USD)"
            type="number"
            step="0.01"
            value={form.xMonthlyCapUsd}
            onChange={(e) => setForm({ ...form, xMonthlyCapUsd: e.target.value })}
          />
        </label>
        <label className="field">
          At the cap
          <select
            aria-label="At the cap"
            value={form.xCapAction}
            onChange={(e) => setForm({ ...form, xCapAction: e.target.value as 'warn' })}
          >
            <option value="warn">warn, and publish</option>
            <option value="refuse">refuse to publish</option>
          </select>
        </label>
        <label className="field">
          X API tier (its posting caps apply)
          <select
            aria-label="X API tier"
            value={form.xTier}
            onChange={(e) => setForm({ ...form, xTier: e.target.value as Tier })}
          >
            <option value="pay_per_use">pay-per-use</option>
            <option value="free">Free</option>
            <option value="basic">Basic</option>
            <option value="pro">Pro</option>
          </select>
        </label>
      </fieldset>
      <button className="primary" type="submit" disabled={busy || !loaded}>
        Save X settings
      </button>
      <ErrorText error={error} />
      {note && (
        <p className="muted" role="status">
          {note}
        </p>
      )}
    </form>
  );
}

const LABELS: [keyof Kinds, string][] = [
  ['published', 'A post was published'],
  ['failed', 'A post failed'],
  ['missed', 'A post was missed'],
  ['reconnect', 'An account needs connecting again'],
];

export function NotificationSettings({ current }: { current?: Kinds }) {
  const { error, run } = useAction();
  const [kinds, setKinds] = useState<Kinds | undefined>(current);
  const [permission, setPermission] = useState<string>(
    notificationsSupported() ? Notification.permission : 'unsupported',
  );
  useEffect(() => {
    if (current) setKinds(current);
  }, [current]);
  // Shown at once; the server's answer (or the old value, if it refuses) follows.
  const toggle = (kind: keyof Kinds, on: boolean) => {
    const before = kinds;
    setKinds((k) => ({ ...(k ?? { published: true, failed: true, missed: true, reconnect: true }), [kind]: on }));
    void run(async () => {
      try {
        setKinds((await client.updateSettings({ notifications: { [kind]: on } })).settings.notifications);
      } catch (err) {
        setKinds(before);
        throw err;
      }
    });
  };
  return (
    <div className="panel" data-notification-settings>
      <h2>Notifications</h2>
      {!desktop &&
        (permission === 'granted' ? (
          <p className="muted small" data-notification-permission="granted">
            This browser shows Herald's notifications.
          </p>
        ) : (
          <p className="small" data-notification-permission={permission}>
            {permission === 'unsupported' ? (
              'This browser has no notifications.'
            ) : permission === 'denied' ? (
              "Notifications are blocked for this page in the browser's site settings."
            ) : (
              <button type="button" onClick={() => void askNotificationPermission().then(setPermission)}>
                Allow browser notifications
              </button>
            )}
          </p>
        ))}
      {LABELS.map(([kind, label]) => (
        <label key={kind} className="row">
          <input
            type="checkbox"
            data-notify={kind}
            checked={kinds?.[kind] ?? true}
            onChange={(e) => toggle(kind, e.target.checked)}
          />{' '}
          {label}
        </label>
      ))}
      <ErrorText error={error} />
    </div>
  );
}
