import { useEffect, useState } from 'react';
import { client, setKey } from '../api';
import { ErrorText } from '../components/ui';
import { useAction, useLoad } from '../hooks';
import { ZoneField } from '../components/zone-field';
import { setUserZone } from '../components/time';
import { machineTimeZone } from '../../../time/index';

type Step = 'owner' | 'secrets' | 'defaults' | 'networks';
const STEPS: readonly [Step, string][] = [['owner', 'Owner'], ['secrets', 'Secrets'], ['defaults', 'Time zone and language'], ['networks', 'Networks']];

function Steps({ at }: { at: Step }) {
  const i = STEPS.findIndex(([s]) => s === at);
  return (
    <ol className="steps" aria-label="Setup steps">
      {STEPS.map(([s, label], n) => <li key={s} className={n === i ? 'current' : n < i ? 'done' : ''} aria-current={n === i ? 'step' : undefined}>{label}</li>)}
    </ol>
  );
}

/**
 * First run: create the owner, choose where secrets live (the OS keychain checked by a real
 * round trip, or the encrypted file store with a passphrase, or neither, said plainly), the
 * default time zone and post language, then the way to the networks.
 */
export function Setup({ onDone }: { onDone: (key: string) => void }) {
  const [step, setStep] = useState<Step>('owner');
  const [key, setOwnKey] = useState('');
  return (
    <div className="center panel wizard">
      <h1>Welcome to Herald</h1>
      <Steps at={step} />
      {step === 'owner' && <OwnerStep onNext={(k) => { setKey(k); setOwnKey(k); setStep('secrets'); }} />}
      {step === 'secrets' && <SecretsStep onNext={() => setStep('defaults')} />}
      {step === 'defaults' && <DefaultsStep onNext={() => setStep('networks')} />}
      {step === 'networks' && <NetworksStep onDone={(hash) => { onDone(key); window.location.hash = hash; }} />}
    </div>
  );
}

function OwnerStep({ onNext }: { onNext: (key: string) => void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { busy, error, run } = useAction();
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    void run(async () => {
      // The zone is chosen in step 3 (its default: the zone of the machine Herald runs on).
      onNext((await client.setup({ email, password, session: true })).apiKey.key);
    });
  };
  return (
    <form onSubmit={submit} aria-label="Create your Herald account">
      <p className="muted">Write once, publish to X, Bluesky, Mastodon, Threads and LinkedIn. Everything stays on this computer. Create the owner of this install to start.</p>
      <label className="field">E-mail<input type="email" required value={email} onChange={(e) => setEmail(e.target.value)} autoFocus /></label>
      <label className="field">Password<input type="password" required minLength={8} value={password} onChange={(e) => setPassword(e.target.value)} /></label>
      <ErrorText error={error} />
      <button className="primary" type="submit" disabled={busy}>Create and continue</button>
    </form>
  );
}

function SecretsStep({ onNext }: { onNext: () => void }) {
  const status = useLoad(() => client.secretStore());
  const [choice, setChoice] = useState<'keychain' | 'encrypted' | 'none'>('keychain');
  const [passphrase, setPassphrase] = useState('');
  const [repeat, setRepeat] = useState('');
  const [declined, setDeclined] = useState<string | undefined>();
  const { busy, error, run, setError } = useAction();
  const s = status.data;
  // A store chosen already (HERALD_SECRET_STORE, or an earlier run of the wizard) is kept unless changed.
  const keep = s !== undefined && (s.current.kind === 'file' || s.current.kind === 'encrypted');
  useEffect(() => { if (s) setChoice(keep ? 'none' : s.keychain.available ? 'keychain' : 'encrypted'); }, [s, keep]);
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    if (choice === 'encrypted' && passphrase !== repeat) return setError('The two passphrases differ');
    void run(async () => {
      const r = await client.chooseSecretStore({ store: choice, ...(choice === 'encrypted' ? { passphrase } : {}) });
      if (choice === 'none' && r.kind === 'unavailable') return setDeclined(r.message);
      onNext();
    });
  };
  if (declined) {
    return (
      <div aria-label="No secret store" role="region">
        <h2>Nowhere to keep accounts yet</h2>
        <p className="error" role="alert" data-declined>{declined}</p>
        <div className="row"><button type="button" onClick={() => setDeclined(undefined)}>Choose a store</button><button className="primary" type="button" onClick={onNext}>Continue without</button></div>
      </div>
    );
  }
  return (
    <form onSubmit={submit} aria-label="Where Herald keeps secrets">
      <h2>Where Herald keeps your account tokens</h2>
      <ErrorText error={status.error} />
      {!s && !status.error && <p className="muted">Checking the OS keychain…</p>}
      {s && <>
        <p className={s.keychain.available ? 'ok' : 'warn-text'} data-keychain={s.keychain.available ? 'available' : 'missing'}>{s.keychain.message}</p>
        <label className="choice"><input type="radio" name="store" value="keychain" checked={choice === 'keychain'} disabled={!s.keychain.available} onChange={() => setChoice('keychain')} />
          <span><b>The OS keychain</b>{s.keychain.available ? ' (recommended)' : ' (not available here)'}</span></label>
        <label className="choice"><input type="radio" name="store" value="encrypted" checked={choice === 'encrypted'} onChange={() => setChoice('encrypted')} />
          <span><b>An encrypted file</b> <span className="muted small">{s.file.message}</span></span></label>
        {choice === 'encrypted' && <div className="indent">
          <label className="field">Passphrase (8 characters or more)<input type="password" minLength={8} required value={passphrase} onChange={(e) => setPassphrase(e.target.value)} /></label>
          <label className="field">The passphrase again<input type="password" minLength={8} required value={repeat} onChange={(e) => setRepeat(e.target.value)} /></label>
        </div>}
        <label className="choice"><input type="radio" name="store" value="none" checked={choice === 'none'} onChange={() => setChoice('none')} />
          {keep ? <span><b>Keep the {s.current.kind === 'file' ? 'plain 0600 file' : 'encrypted file'} in use</b></span>
            : <span><b>Neither for now</b> <span className="muted small">Herald runs, but cannot connect accounts until you choose.</span></span>}</label>
      </>}
      <ErrorText error={error} />
      <button className="primary" type="submit" disabled={busy || !s}>Continue</button>
    </form>
  );
}

function DefaultsStep({ onNext }: { onNext: () => void }) {
  const settings = useLoad(() => client.settings().then((r) => r.settings));
  const [zone, setZone] = useState('');
  const [language, setLanguage] = useState('');
  const { busy, error, run } = useAction();
  const s = settings.data;
  useEffect(() => { if (s) { setZone(s.timeZone); setLanguage(s.defaultLanguage); } }, [s]);
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
      {s && <p className="muted small" data-detected>Detected on this computer: {s.detected.timeZone}, {s.detected.defaultLanguage}{browserZone !== s.detected.timeZone ? ` (this browser says ${browserZone})` : ''}.</p>}
      <ZoneField label="Time zone for schedules and shown times (new social sets start in it)" value={zone} onChange={setZone}
        extra={s ? [s.detected.timeZone, browserZone] : []} />
      <label className="field">Language of new posts (e.g. en, de, pt-BR)<input required value={language} onChange={(e) => setLanguage(e.target.value)} /></label>
      <ErrorText error={error} />
      <button className="primary" type="submit" disabled={busy || !s}>Continue</button>
    </form>
  );
}

function NetworksStep({ onDone }: { onDone: (hash: string) => void }) {
  return (
    <div role="region" aria-label="Connect networks">
      <h2>Connect your networks</h2>
      <ul className="plain">
        <li><b>Bluesky</b> and <b>Mastodon</b> connect straight away on the Accounts page (Bluesky with an app password: bsky.app → Settings → Privacy and security → App passwords).</li>
        <li><b>X</b>, <b>Threads</b> and <b>LinkedIn</b> need an app of yours first: register one at the network and paste its client id and secret in Settings → Networks.</li>
      </ul>
      <div className="row">
        <button className="primary" type="button" data-go="accounts" onClick={() => onDone('#/accounts')}>Connect accounts</button>
        <button type="button" data-go="networks" onClick={() => onDone('#/networks')}>Set up network apps</button>
        <button type="button" data-go="compose" onClick={() => onDone('#/compose')}>Later</button>
      </div>
    </div>
  );
}
