/**
 * The composer's account choice. An account that cannot post (its sign-in expired or was revoked,
 * or Herald marked it for reconnecting) is unticked and cannot be ticked, with a line saying why
 * and a Reconnect link; one that is only expiring or rate-limited stays tickable, with a warning.
 */
import type { Account } from '../../../../client/index';
import { networkName } from '../../components/ui';

export type PickAccount = {
  uuid: string;
  platform: string;
  username: string;
  status: string;
  health?: Account['health'];
};

/** Why an account cannot post now, in words; undefined when it can. */
export function cannotPost(a: PickAccount): string | undefined {
  const h = a.health;
  if (h?.state === 'expired') return 'its sign-in expired';
  if (h?.state === 'revoked') return "the network no longer accepts Herald's access (revoked or signed out)";
  if (a.status === 'needs_reauth') return 'it must be connected again';
  return undefined;
}

/**
 * The accounts a composition goes to: its selection (none = every account of the set), without
 * those that cannot post.
 */
export function pickTargets<A extends PickAccount>(setAccounts: A[], selected: string[]): A[] {
  return (selected.length ? setAccounts.filter((a) => selected.includes(a.uuid)) : setAccounts).filter(
    (a) => !cannotPost(a),
  );
}

export function AccountPicker({
  setAccounts,
  targets,
  onChange,
}: {
  setAccounts: PickAccount[];
  targets: PickAccount[];
  onChange: (selected: string[]) => void;
}) {
  const usable = setAccounts.filter((a) => !cannotPost(a));
  const blocked = setAccounts.filter((a) => cannotPost(a));
  const toggle = (a: PickAccount, on: boolean) => {
    const current = targets.map((t) => t.uuid);
    const next = on ? [...new Set([...current, a.uuid])] : current.filter((x) => x !== a.uuid);
    // Every account that can post: kept as "the whole set" unless one of the set cannot post.
    onChange(next.length === usable.length && blocked.length === 0 ? [] : next);
  };
  return (
    <>
      <div className="row" style={{ marginTop: 10 }} role="group" aria-label="Accounts">
        {setAccounts.length === 0 && (
          <span className="muted small">
            No accounts in this set. <a href="#/accounts">Connect one</a>.
          </span>
        )}
        {setAccounts.map((a) => {
          const why = cannotPost(a);
          const h = a.health;
          return (
            <label key={a.uuid} className="chip" data-account={a.uuid} title={why ? `Cannot post: ${why}` : h?.message}>
              <input
                type="checkbox"
                checked={!why && targets.some((t) => t.uuid === a.uuid)}
                disabled={!!why}
                onChange={(e) => toggle(a, e.target.checked)}
              />{' '}
              {networkName(a.platform)} @{a.username}
              {why ? (
                <span
                  className="error small"
                  data-cannot-post={h?.state === 'expired' || h?.state === 'revoked' ? h.state : 'needs_reauth'}
                >
                  {' '}
                  (cannot post)
                </span>
              ) : h && h.state !== 'ok' ? (
                <span className="warn-text small" data-health-warning={h.state}>
                  {' '}
                  ({h.state.replace('_', ' ')})
                </span>
              ) : null}
            </label>
          );
        })}
      </div>
      {blocked.map((a) => (
        <p key={a.uuid} className="error small" role="status" data-unticked={a.uuid}>
          Not sending to {networkName(a.platform)} @{a.username}: {cannotPost(a)}. <a href="#/accounts">Reconnect</a>
        </p>
      ))}
    </>
  );
}
