import { useEffect, useId, useState } from 'react';
import { client, setKey } from '../api';
import { ErrorText } from '../components/ui';
import { SecretStoreChooser } from '../components/SecretStoreChooser';
import { useAction, useLoad } from '../hooks';
import { ZoneField } from '../components/zone-field';
import { setUserZone } from '../components/time';
import { machineTimeZone } from '../../../time/index';

export type Step = 'owner' | 'secrets' | 'defaults' | 'networks';
const STEPS: readonly [Step, string][] = [
  ['owner', 'Owner'],
  ['secrets', 'Secrets'],
  ['defaults', 'Time zone and language'],
  ['networks', 'Networks'],
];

function Steps({ at }: { at: Step }) {
  const i = STEPS.findIndex(([s]) => s === at);
  return (
    <ol className="steps" aria-label="Setup steps">
      {STEPS.map(([s, label], n) => (
        <li key={s} className={n === i ? 'current' : n < i ? 'done' : ''} aria-current={n === i ? 'step' : undefined}>
          {label}
        </li>
      ))}
    </ol>
  );
}

/**
 * First run: create the owner, choose where secrets live (the OS keychain checked by a real
 * round trip, or the encrypted file store with a passphrase, or neither, said plainly), the
 * default time zone and post language, then the way to the networks. Each step reached is kept
 * on the server, so a reload (or signing in again) resumes at `start`.
 */
export function Setup({ start = 'owner', onDone }: { start?: Step; onDone: (key?: string) => void }) {
  const [step, setStep] = useState<Step>(start);
  const [key, setOwnKey] = useState<string | undefined>();
  const { error, run } = useAction();
  /** Moves on once the server has the step: a reload from here resumes there. */
  const go = (next: Exclude<Step, 'owner'> | null, then?: () => void) =>
    void run(async () => {
      await client.setWizardStep({ step: next });
      if (next) setStep(next);
      then?.();
    });
  return (
    <div className="center panel wizard">
      <h1>Welcome to Herald</h1>
      <Steps at={step} />
      {step === 'owner' && (
        <OwnerStep
          onNext={(k) => {
            setKey(k);
            setOwnKey(k);
            setStep('secrets');
          }}
        />
      )}
      {step === 'secrets' && <SecretsStep onNext={() => go('defaults')} />}
      {step === 'defaults' && <DefaultsStep onNext={() => go('networks')} />}
      {step === 'networks' && (
        <NetworksStep
          onDone={(hash) =>
            go(null, () => {
              onDone(key);
              window.location.hash = hash;
            })
          }
        />
      )}
      <ErrorText error={error} />
    </div>
  );
}

function OwnerStep({ onNext }: { onNext: (key: string) => void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [show, setShow] = useState(false);
  const { busy, error, run } = useAction();
  const hint = useId();
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    void run(async () => {
      // The zone is chosen in step 3 (its default: the zone of the machine Herald runs on).
      onNext((await client.setup({ email, password, session: true })).apiKey.key);
    });
  };
  const short = password.length > 0 && password.length < 8;
  return (
    <form onSubmit={submit} aria-label="Create your Herald account">
      <p className="muted">
        Write once, publish to X, Bluesky, Mastodon, Threads and LinkedIn. Everything stays on this computer. Create the
        owner of this install to start.
      </p>
      <label className="field">
        E-mail
        <input
          type="email"
          required
          autoComplete="username"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          autoFocus
        />
      </label>
      <label className="field">
        Password
        <input
          type={show ? 'text' : 'password'}
          required
          minLength={8}
          autoComplete="new-password"
          aria-describedby={hint}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
      </label>
      <p id={hint} className={`small ${short ? 'warn-text' : 'muted'}`} data-password-hint>
        At least 8 characters{short ? ` (${8 - password.length} more)` : ''}.
      </p>
      <button
        type="button"
        className="link-button small show-password"
        aria-pressed={show}
        onClick={() => setShow((v) => !v)}
      >
        Show password
      </button>
      <ErrorText error={error} />
      <button className="primary" type="submit" disabled={busy}>
        Create and continue
      </button>
    </form>
  );
}

function SecretsStep({ onNext }: { onNext: () => void }) {
  const [declined, setDeclined] = useState<string | undefined>();
  if (declined) {
    return (
      <div aria-label="No secret store" role="region">
        <h2>Nowhere to keep accounts yet</h2>
        <p className="warn-text" role="status" data-declined>
          {declined}
        </p>
        <div className="row">
          <button type="button" onClick={() => setDeclined(undefined)}>
            Choose a store
          </button>
          <button className="primary" type="button" onClick={onNext}>
            Continue without
          </button>
        </div>
      </div>
    );
  }
  return <SecretStoreChooser mode="wizard" onChosen={(r) => (r.declined ? setDeclined(r.message) : onNext())} />;
}

function DefaultsStep({ onNext }: { onNext: () => void }) {
  const settings = useLoad(() => client.settings().then((r) => r.settings));
  const [zone, setZone] = useState('');
  const [language, setLanguage] = useState('');
  const { busy, error, run } = useAction();
  const s = settings.data;
  useEffect(() => {
    if (s) {
      setZone(s.timeZone);
      setLanguage(s.defaultLanguage);
    }
  }, [s]);
  const browserZone = machineTimeZone();
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    void run(async () => {
      const r = await client.updateSettings({ timeZone: zone, defaultLanguage: language });
      setUserZone(r.settings.timeZone);
      onNext();
    });
  };
  return (
    <form onSubmit={submit} aria-label="Time zone and language">
      <h2>Time zone and post language</h2>
      <ErrorText error={settings.error} />
      {s && (
        <p className="muted small" data-detected>
          Detected on this computer: {s.detected.timeZone}, {s.detected.defaultLanguage}
          {browserZone !== s.detected.timeZone ? ` (this browser says ${browserZone})` : ''}.
        </p>
      )}
      <ZoneField
        label="Time zone for schedules and shown times (new social sets start in it)"
        value={zone}
        onChange={setZone}
        extra={s ? [s.detected.timeZone, browserZone] : []}
      />
      <label className="field">
        Language of new posts (e.g. en, de, pt-BR)
        <input required value={language} onChange={(e) => setLanguage(e.target.value)} />
      </label>
      <ErrorText error={error} />
      <button className="primary" type="submit" disabled={busy || !s}>
        Continue
      </button>
    </form>
  );
}

function NetworksStep({ onDone }: { onDone: (hash: string) => void }) {
  return (
    <div role="region" aria-label="Connect networks">
      <h2>Connect your networks</h2>
      <ul className="plain">
        <li>
          <b>Bluesky</b> and <b>Mastodon</b> connect straight away on the Accounts page (Bluesky with an app password:
          bsky.app → Settings → Privacy and security → App passwords).
        </li>
        <li>
          <b>X</b>, <b>Threads</b> and <b>LinkedIn</b> need an app of yours first: register one at the network and paste
          its client id and secret on the <b>Networks</b> page (in the menu).
        </li>
      </ul>
      <div className="row">
        <button className="primary" type="button" data-go="accounts" onClick={() => onDone('#/accounts')}>
          Connect accounts
        </button>
        <button type="button" data-go="networks" onClick={() => onDone('#/networks')}>
          Set up network apps
        </button>
        <button type="button" data-go="compose" onClick={() => onDone('#/compose')}>
          Later
        </button>
      </div>
    </div>
  );
}
