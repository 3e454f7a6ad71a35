/**
 * Settings → Alerts: destinations that get Herald's alerts away from the desk (ntfy, Gotify,
 * Telegram, Discord, Matrix, a signed webhook). A helper per service builds the URL (or paste
 * one); the events are checkboxes; each destination has a Test button with its result, its last
 * delivery, and a delete that asks first. Credentials go to the secret store; the list shows the
 * URL masked, as the server answers it.
 */
import { useState } from 'react';
import { client } from '../../api';
import { useAction, useLoad } from '../../hooks';
import { ErrorText } from '../../components/ui';
import { Time } from '../../components/time';

const EVENTS = [
  ['post.failed', 'A post failed'],
  ['post.missed', 'A post was missed'],
  ['account.needs_reauth', 'An account needs connecting again'],
  ['account.expiring', "An account's sign-in ends within 7 days"],
  ['credits.low', 'Credits are running low'],
  ['xspend.near_cap', "X spend is near this month's cap"],
  ['network.version_expiring', "LinkedIn's API version is ending"],
] as const;
type Event = (typeof EVENTS)[number][0];

/** Each service's fields and how they make its URL. */
const SERVICES: Record<
  string,
  { label: string; fields: [string, string][]; url: (f: Record<string, string>) => string }
> = {
  ntfy: {
    label: 'ntfy',
    fields: [
      ['host', 'Server (ntfy.sh, or host:port)'],
      ['topic', 'Topic'],
    ],
    url: (f) => `ntfys://${f.host}/${f.topic}`,
  },
  gotify: {
    label: 'Gotify',
    fields: [
      ['host', 'Server (host or host:port)'],
      ['token', 'Application token'],
    ],
    url: (f) => `gotify://${f.host}/${f.token}`,
  },
  telegram: {
    label: 'Telegram',
    fields: [
      ['token', 'Bot token (from @BotFather)'],
      ['chats', 'Chat ids (comma-separated)'],
    ],
    url: (f) => `telegram://${f.token}@telegram?chats=${f.chats}`,
  },
  discord: {
    label: 'Discord',
    fields: [['webhook', 'Webhook URL (…/api/webhooks/id/token)']],
    url: (f) => {
      const m = /webhooks\/([^/]+)\/([^/?#]+)/.exec(f.webhook ?? '');
      return m ? `discord://${m[2]}@${m[1]}` : 'discord://';
    },
  },
  matrix: {
    label: 'Matrix',
    fields: [
      ['host', 'Homeserver (matrix.org)'],
      ['user', 'User'],
      ['password', 'Password'],
      ['rooms', 'Rooms (!id:server or #alias:server, comma-separated)'],
    ],
    url: (f) =>
      `matrix://${encodeURIComponent(f.user ?? '')}:${encodeURIComponent(f.password ?? '')}@${f.host}/?rooms=` +
      encodeURIComponent(f.rooms ?? ''),
  },
  generic: {
    label: 'Webhook (JSON, signed)',
    fields: [['url', 'https:// URL']],
    url: (f) => `generic+${f.url ?? ''}`,
  },
  url: { label: 'Paste an alert URL', fields: [['url', 'Alert URL']], url: (f) => f.url ?? '' },
};

export function AlertsPanel() {
  const list = useLoad(() => client.alerts().then((r) => r.alerts));
  const { busy, error, run } = useAction();
  const [service, setService] = useState('ntfy');
  const [fields, setFields] = useState<Record<string, string>>({});
  const [secret, setSecret] = useState('');
  const [events, setEvents] = useState<Event[]>(['post.failed', 'post.missed', 'account.needs_reauth']);
  const [confirm, setConfirm] = useState<string | undefined>();
  const s = SERVICES[service];
  const add = () =>
    run(async () => {
      await client.addAlert({ url: s.url(fields), events, ...(service === 'generic' && secret ? { secret } : {}) });
      setFields({});
      setSecret('');
      await list.reload();
    });
  return (
    <div className="panel" data-alerts>
      <h2>Alerts</h2>
      <p className="muted small">
        Alerts reach you away from the desk when something needs you. Each event is sent once; a destination that is
        down is tried again later, and publishing never waits for it.
      </p>
      <ErrorText error={list.error ?? error} />
      <ul className="alert-list" data-alert-list>
        {(list.data ?? []).map((a) => (
          <li key={a.id} className="alert-row" data-alert={a.kind}>
            <div>
              <strong>{SERVICES[a.kind]?.label ?? a.kind}</strong> <code className="break">{a.url}</code>
            </div>
            <div className="muted small">
              {a.events.map((e) => EVENTS.find(([k]) => k === e)?.[1] ?? e).join(' · ')}
            </div>
            <div className="small" data-last-delivery>
              {a.lastDelivery ? (
                <span className={a.lastDelivery.status === 'sent' ? 'ok' : 'error'}>
                  Last delivery ({a.lastDelivery.event}, <Time at={a.lastDelivery.at} />
                  ): {a.lastDelivery.status}
                  {a.lastDelivery.error ? ` — ${a.lastDelivery.error}` : ''}
                </span>
              ) : (
                <span className="muted">Nothing sent yet</span>
              )}
              {a.pending > 0 && <span className="muted"> · {a.pending} waiting to be retried</span>}
            </div>
            <div className="row">
              <button
                type="button"
                disabled={busy}
                onClick={() => void run(() => client.testAlert(a.id).then(list.reload))}
              >
                Test
              </button>
              {confirm === a.id ? (
                <span role="alertdialog" aria-label="Delete this alert?">
                  Delete this alert?{' '}
                  <button
                    type="button"
                    className="danger"
                    onClick={() =>
                      void run(() => client.deleteAlert(a.id).then(list.reload)).then(() => setConfirm(undefined))
                    }
                  >
                    Delete
                  </button>{' '}
                  <button type="button" onClick={() => setConfirm(undefined)}>
                    Keep
                  </button>
                </span>
              ) : (
                <button type="button" onClick={() => setConfirm(a.id)}>
                  Delete…
                </button>
              )}
            </div>
          </li>
        ))}
      </ul>
      <form
        data-add-alert
        onSubmit={(e) => {
          e.preventDefault();
          void add();
        }}
      >
        <h3>Add a destination</h3>
        <label className="field">
          Service
          <select
            aria-label="Service"
            value={service}
            onChange={(e) => {
              setService(e.target.value);
              setFields({});
            }}
          >
            {Object.entries(SERVICES).map(([k, v]) => (
              <option key={k} value={k}>
                {v.label}
              </option>
            ))}
          </select>
        </label>
        {s.fields.map(([k, label]) => (
          <label className="field" key={`${service}-${k}`}>
            {label}
            <input
              aria-label={label}
              type={k === 'password' || k === 'token' ? 'password' : 'text'}
              value={fields[k] ?? ''}
              onChange={(e) => setFields({ ...fields, [k]: e.target.value.trim() })}
            />
          </label>
        ))}
        {service === 'generic' && (
          <label className="field">
            Signing key (optional: X-Herald-Signature, HMAC-SHA256 of the body)
            <input
              aria-label="Signing key"
              type="password"
              value={secret}
              onChange={(e) => setSecret(e.target.value)}
            />
          </label>
        )}
        <fieldset className="plain">
          <legend>Events</legend>
          {EVENTS.map(([k, label]) => (
            <label key={k} className="check">
              <input
                type="checkbox"
                checked={events.includes(k)}
                onChange={(e) => setEvents(e.target.checked ? [...events, k] : events.filter((x) => x !== k))}
              />{' '}
              {label}
            </label>
          ))}
        </fieldset>
        <button type="submit" disabled={busy || events.length === 0}>
          Add alert
        </button>
      </form>
    </div>
  );
}
