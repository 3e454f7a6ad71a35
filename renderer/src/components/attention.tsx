import { useEffect, useState } from 'react';
import { client } from '../api';
import type { Account } from '../../../client/index';
import { useAction, useLoad } from '../hooks';
import { accountLabel, networkName } from './ui';
import { Time } from './time';
import { SECRET_STORE_CHANGED } from './SecretStoreChooser';

/** Accounts whose posts will not go out as things stand. */
export const needsAttention = (a: Pick<Account, 'health'>) =>
  a.health.state === 'expired' || a.health.state === 'revoked';

/** Whole days from now until `iso`, at least 1. */
const daysUntil = (iso: string) => Math.max(1, Math.ceil((Date.parse(iso) - Date.now()) / 86_400_000));

export function HealthChip({ account }: { account: Pick<Account, 'health' | 'status'> }) {
  const h = account.health;
  const tone = h.state === 'ok' ? 'ok' : h.state === 'expiring' || h.state === 'rate_limited' ? 'warn' : 'bad';
  const label =
    h.state === 'expiring'
      ? `expiring${h.expiresAt ? ` in ${daysUntil(h.expiresAt)} days` : ''}`
      : h.state.replace('_', '-');
  return (
    <span className={`chip ${tone}`} data-health={h.state} data-status={account.status} title={h.message}>
      {label}
    </span>
  );
}

/**
 * Above every page: scheduled posts on accounts that need attention (expired or revoked, or
 * expiring), and the encrypted secret store waiting for its passphrase.
 */
export function AttentionBanner() {
  const data = useLoad(async () => {
    const [accounts, schedules, settings] = await Promise.all([
      client.listAccounts().then((r) => r.accounts),
      client.listSchedules().then((r) => r.schedules),
      client.settings().then((r) => r.settings),
    ]);
    // Only the owner sees it (and can unlock); no keychain round trip on every page.
    const locked = settings.secretStoreLocked === true;
    const nowhere = settings.secretStore === 'unavailable';
    return { accounts, schedules, locked, nowhere };
  });
  const [passphrase, setPassphrase] = useState('');
  const { busy, error, run } = useAction();
  const { reload } = data;
  useEffect(() => {
    const again = () => void reload();
    window.addEventListener(SECRET_STORE_CHANGED, again);
    return () => window.removeEventListener(SECRET_STORE_CHANGED, again);
  }, [reload]);
  if (!data.data) return null;
  const { accounts, schedules, locked, nowhere } = data.data;
  const byId = new Map(accounts.map((a) => [a.uuid, a]));
  const atRisk = schedules.filter((s) => {
    const a = byId.get(s.accountUuid);
    return a && a.health.state !== 'ok' && a.health.state !== 'rate_limited';
  });
  return (
    <>
      {locked && (
        <form
          className="banner"
          role="alert"
          aria-label="Unlock Herald"
          data-locked
          onSubmit={(e) => {
            e.preventDefault();
            void run(async () => {
              await client.unlockSecretStore({ passphrase });
              setPassphrase('');
              await data.reload();
            });
          }}
        >
          <h2>Herald is locked — enter your passphrase</h2>
          <p className="small">
            Account tokens are kept in an encrypted file. Until you unlock it nothing can be published or connected
            {schedules.length > 0
              ? `; ${schedules.length} scheduled post${schedules.length === 1 ? ' waits' : 's wait'} and go` +
                `${schedules.length === 1 ? 'es' : ''} out once it is unlocked`
              : ''}
            .
          </p>
          <div className="row">
            <input
              type="password"
              aria-label="Passphrase"
              autoComplete="current-password"
              value={passphrase}
              onChange={(e) => setPassphrase(e.target.value)}
              required
            />
            <button className="primary" type="submit" disabled={busy}>
              Unlock
            </button>
          </div>
          {error && (
            <p className="error" role="alert">
              {error}
            </p>
          )}
        </form>
      )}
      {nowhere && (
        <div className="banner" role="status" data-no-store>
          <h2>Herald has nowhere to keep account tokens yet</h2>
          <p className="small">
            Until you choose a place, no account can be connected.{' '}
            <a href="#/settings">Choose where in Settings → Data</a> (an encrypted file works on any computer).
          </p>
        </div>
      )}
      {atRisk.length > 0 && (
        <div className="banner" role="status" data-attention>
          <h2>
            {atRisk.length} scheduled post{atRisk.length === 1 ? '' : 's'} on accounts that need attention
          </h2>
          <ul>
            {atRisk.map((s) => {
              const a = byId.get(s.accountUuid)!;
              return (
                <li key={s.id}>
                  <Time at={s.scheduledFor} zone={s.timeZone} />: “{s.draftTitle || 'Untitled'}” on{' '}
                  {networkName(a.platform)} {accountLabel(a)} — {a.health.message}. <a href="#/accounts">Reconnect</a>
                </li>
              );
            })}
          </ul>
        </div>
      )}
    </>
  );
}
