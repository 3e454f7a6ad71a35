/**
 * Per selected network: the account its previews show (name, handle, picture, server) and the
 * counting options it brings (a Mastodon instance's limits; the strictest when there are
 * several). Kept by value, so the memoised previews are not redrawn when nothing changed.
 */
import { useMemo } from 'react';
import { limitFor, type CountOptions, type Platform } from '../../../../text/index';
import type { Identity } from './preview/types';

interface AccountLike {
  uuid: string;
  platform: string;
  username: string;
  display_name?: string;
  avatar?: string;
  server_url?: string | null;
  limits?: CountOptions;
}

export interface NetworkFacts {
  opts: Partial<Record<Platform, CountOptions>>;
  ids: Partial<Record<Platform, Identity>>;
}

const hostOf = (url?: string | null) => (url ? url.replace(/^https?:\/\//, '').replace(/\/.*$/, '') : undefined);

export function useNetworkFacts(platforms: Platform[], targets: AccountLike[]): NetworkFacts {
  const key = JSON.stringify([
    platforms,
    targets.map((a) => [a.uuid, a.platform, a.username, a.display_name, a.avatar, a.server_url, a.limits]),
  ]);
  return useMemo(() => {
    const opts: NetworkFacts['opts'] = {};
    const ids: NetworkFacts['ids'] = {};
    for (const pl of platforms) {
      const mine = targets.filter((a) => a.platform === pl);
      opts[pl] =
        mine
          .map((a) => a.limits ?? {})
          .reduce<CountOptions | undefined>((a, o) => (!a || limitFor(pl, o) < limitFor(pl, a) ? o : a), undefined) ??
        {};
      const a = mine[0];
      const handle = a?.username ?? 'you';
      ids[pl] = {
        name: a?.display_name || handle,
        handle,
        avatar: a?.avatar || undefined,
        server: hostOf(a?.server_url),
        username: a?.username,
      };
    }
    return { opts, ids };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
}
