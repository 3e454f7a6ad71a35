import { useState } from 'react';
import { client } from '../api';
import { useAction } from '../hooks';
import { startSignIn } from '../signin-return';

/** The sign-in flows the install has set up (GET /auth/setup). */
export interface SignInMethods {
  identity: boolean;
  identityProvider: string;
  microblog: boolean;
}

export function Login({
  onDone,
  signInWith,
  notice,
}: {
  onDone: (key: string) => void;
  signInWith?: SignInMethods;
  notice?: string;
}) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { busy, error, run } = useAction();
  const shown = error ?? notice;
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    void run(async () => onDone((await client.login({ email, password, session: true })).apiKey.key));
  };
  return (
    <form className="center panel" onSubmit={submit} aria-label="Sign in">
      <h1>Sign in to Herald</h1>
      <label className="field">
        E-mail
        <input type="email" required value={email} onChange={(e) => setEmail(e.target.value)} autoFocus />
      </label>
      <label className="field">
        Password
        <input type="password" required value={password} onChange={(e) => setPassword(e.target.value)} />
      </label>
      {shown && (
        <p className="error" role="alert">
          {shown}
        </p>
      )}
      <button className="primary" type="submit" disabled={busy}>
        Sign in
      </button>
      {(signInWith?.identity || signInWith?.microblog) && (
        <div className="oauth-buttons">
          <p className="muted small">or</p>
          {signInWith.identity && (
            <button type="button" disabled={busy} onClick={() => void run(() => startSignIn('identity'))}>
              Continue with {signInWith.identityProvider}
            </button>
          )}
          {signInWith.microblog && (
            <button type="button" disabled={busy} onClick={() => void run(() => startSignIn('microblog'))}>
              Continue with X
            </button>
          )}
        </div>
      )}
    </form>
  );
}
