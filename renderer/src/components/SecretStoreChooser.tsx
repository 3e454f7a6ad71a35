/**
 * Where Herald keeps account tokens: the first-run wizard's step and Settings → Data use this
 * one form, so the choice made (or put off) in the wizard can be made or changed at any time.
 * The OS keychain is checked by a real round trip; the encrypted file takes a passphrase; a
 * change moves every stored token across (the server does that, and says how many).
 */
import { useEffect, useId, useState } from 'react';
import { client } from '../api';
import { useAction, useLoad } from '../hooks';
import { ErrorText } from './ui';

type Choice = 'keychain' | 'encrypted' | 'file' | 'none';
/** Said on window when the store in force changes, so what depends on it (the banner) looks again. */
export const SECRET_STORE_CHANGED = 'herald:secret-store-changed';
export interface ChosenStore {
  kind: string;
  message: string;
  moved: number;
  declined: boolean;
}

const IN_USE: Record<string, string> = {
  keychain: 'the OS keychain',
  encrypted: 'an encrypted file',
  file: 'a plain 0600 file (not encrypted)',
  unavailable: 'nowhere yet',
};

/** One radio with a short name; its explanation describes it instead of repeating in its name. */
function Option({
  value,
  choice,
  setChoice,
  title,
  note,
  disabled,
}: {
  value: Choice;
  choice: Choice;
  setChoice: (c: Choice) => void;
  title: string;
  note?: string;
  disabled?: boolean;
}) {
  const id = useId();
  return (
    <div className="choice">
      <input
        type="radio"
        id={`${id}-r`}
        name="store"
        value={value}
        checked={choice === value}
        disabled={disabled}
        aria-describedby={note ? `${id}-d` : undefined}
        onChange={() => setChoice(value)}
      />
      <div>
        <label htmlFor={`${id}-r`}>
          <b>{title}</b>
        </label>
        {note && (
          <div id={`${id}-d`} className="muted small">
            {note}
          </div>
        )}
      </div>
    </div>
  );
}

export function SecretStoreChooser({
  mode,
  onChosen,
}: {
  mode: 'wizard' | 'settings';
  onChosen: (r: ChosenStore) => void;
}) {
  const status = useLoad(() => client.secretStore());
  const [choice, setChoice] = useState<Choice>('keychain');
  const [passphrase, setPassphrase] = useState('');
  const [repeat, setRepeat] = useState('');
  const { busy, error, run, setError } = useAction();
  const s = status.data;
  const current = s?.current.kind;
  // In the wizard a store chosen already (HERALD_SECRET_STORE, an earlier visit) is kept unless changed.
  const keep = mode === 'wizard' && (current === 'file' || current === 'encrypted');
  useEffect(() => {
    if (!s) return;
    if (mode === 'settings')
      setChoice(s.current.kind === 'unavailable' ? (s.keychain.available ? 'keychain' : 'encrypted') : s.current.kind);
    else setChoice(keep ? 'none' : s.keychain.available ? 'keychain' : 'encrypted');
  }, [s, keep, mode]);
  const unchanged = mode === 'settings' && choice === current;
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    if (choice === 'encrypted' && passphrase !== repeat) return setError('The two passphrases differ');
    void run(async () => {
      const r = await client.chooseSecretStore({ store: choice, ...(choice === 'encrypted' ? { passphrase } : {}) });
      setPassphrase('');
      setRepeat('');
      await status.reload();
      onChosen({
        kind: r.kind,
        message: r.message,
        moved: r.moved,
        declined: choice === 'none' && r.kind === 'unavailable',
      });
      window.dispatchEvent(new Event(SECRET_STORE_CHANGED));
    });
  };
  return (
    <form onSubmit={submit} aria-label="Where Herald keeps secrets" data-store-chooser={mode}>
      {mode === 'wizard' && <h2>Where Herald keeps your account tokens</h2>}
      <ErrorText error={status.error} />
      {!s && !status.error && <p className="muted">Checking the OS keychain…</p>}
      {s && (
        <>
          {mode === 'settings' && (
            <p data-store-in-use={current}>
              Account tokens are kept in: <b>{IN_USE[current!] ?? current}</b>
              {s.current.locked ? ' (locked: unlock it with the banner above)' : ''}
            </p>
          )}
          <p
            className={s.keychain.available ? 'ok' : 'warn-text'}
            data-keychain={s.keychain.available ? 'available' : 'missing'}
          >
            {s.keychain.message}
          </p>
          <fieldset className="plain">
            <legend className="sr-only">Keep account tokens in</legend>
            <Option
              value="keychain"
              choice={choice}
              setChoice={setChoice}
              disabled={!s.keychain.available}
              title={`The OS keychain${s.keychain.available ? ' (recommended)' : ' (not available here)'}`}
            />
            <Option
              value="encrypted"
              choice={choice}
              setChoice={setChoice}
              title="An encrypted file"
              note={s.file.message}
            />
            {choice === 'encrypted' && !unchanged && (
              <div className="indent">
                <label className="field">
                  Passphrase (8 characters or more)
                  <input
                    type="password"
                    minLength={8}
                    required
                    autoComplete="new-password"
                    value={passphrase}
                    onChange={(e) => setPassphrase(e.target.value)}
                  />
                </label>
                <label className="field">
                  The passphrase again
                  <input
                    type="password"
                    minLength={8}
                    required
                    autoComplete="new-password"
                    value={repeat}
                    onChange={(e) => setRepeat(e.target.value)}
                  />
                </label>
              </div>
            )}
            {mode === 'settings' && (
              <Option
                value="file"
                choice={choice}
                setChoice={setChoice}
                title="A plain file"
                note={
                  'secrets.json in the data folder, readable only by you (mode 0600) but not encrypted: ' +
                  'anyone who can read your files can read the tokens.'
                }
              />
            )}
            {mode === 'wizard' &&
              (keep ? (
                <Option value="none" choice={choice} setChoice={setChoice} title={`Keep ${IN_USE[current!]} in use`} />
              ) : (
                <Option
                  value="none"
                  choice={choice}
                  setChoice={setChoice}
                  title="Neither for now"
                  note={
                    'Herald runs, but cannot connect accounts until you choose; ' +
                    'you can choose at any time in Settings → Data.'
                  }
                />
              ))}
          </fieldset>
        </>
      )}
      <ErrorText error={error} />
      <button className="primary" type="submit" disabled={busy || !s || unchanged}>
        {mode === 'wizard' ? 'Continue' : 'Keep tokens there'}
      </button>
      {mode === 'settings' && (
        <p className="muted small">
          Changing the store moves every saved token and app secret across; connected accounts stay connected.
        </p>
      )}
    </form>
  );
}
