/**
 * The names a person knows: X, Bluesky, Mastodon, Threads and LinkedIn, and accounts by their
 * handles, where the API speaks its own words (microblog, skyblog, fedblog, threadblog, problog)
 * and account ids. Tables and messages show these first; `-o json` keeps the API's fields and
 * adds `platformName` and `accountHandle` beside them. Commands take either word for a network.
 */
import { InvalidArgumentError } from 'commander';
import type { HeraldClient } from '../client/herald-client.js';
import type { Platform } from '../text/counting.js';
import { UsageError } from './context.js';

// The UI's labels (text/counting's NETWORK_LABELS), held here too so that a command that only
// prints does not load the counting rules at start-up.
const NAMES: Record<Platform | 'identity', string> = {
  microblog: 'X',
  skyblog: 'Bluesky',
  fedblog: 'Mastodon',
  threadblog: 'Threads',
  problog: 'LinkedIn',
  identity: 'Sign-in provider',
};
const PLATFORMS = ['microblog', 'skyblog', 'fedblog', 'threadblog', 'problog'] as const satisfies readonly Platform[];

/** "X", "Mastodon", … for an API platform word (an unknown word is shown as it is). */
export const networkName = (platform: string): string => (NAMES as Record<string, string>)[platform] ?? platform;

const BY_NAME: Record<string, string> = {
  x: 'microblog',
  twitter: 'microblog',
  bluesky: 'skyblog',
  bsky: 'skyblog',
  mastodon: 'fedblog',
  threads: 'threadblog',
  linkedin: 'problog',
  'sign-in': 'identity',
  oidc: 'identity',
};

/** The word to type for a network in a command: x, bluesky, mastodon, threads, linkedin, sign-in. */
export const networkWord = (platform: string): string =>
  networkName(platform)
    .toLowerCase()
    .replace(/ provider$/, '');

/** The words a person may type for each of `allowed`, for --help: "x, mastodon (or the API's microblog, fedblog)". */
export function networkChoices(allowed: readonly string[]): string {
  return `${allowed.map(networkWord).join(', ')} (or the API's ${allowed.join(', ')})`;
}

/** Reads a network given by name (x, bluesky, mastodon, threads, linkedin) or by the API's word. */
export function parseNetwork<P extends string>(input: string, allowed: readonly P[]): P {
  const word = input.trim().toLowerCase();
  const platform = (BY_NAME[word] ?? word) as P;
  if (allowed.includes(platform)) return platform;
  throw new UsageError(`Unknown network "${input}": use ${networkChoices(allowed)}`);
}

/** A commander argument/option parser for parseNetwork (its error is commander's usage error). */
export const networkParser =
  <P extends string>(allowed: readonly P[]) =>
  (input: string): P => {
    try {
      return parseNetwork(input, allowed);
    } catch (err) {
      throw new InvalidArgumentError((err as Error).message);
    }
  };

type Account = Awaited<ReturnType<HeraldClient['listAccounts']>>['accounts'][number];
type AccountLike = Pick<Account, 'platform' | 'username'> & Partial<Pick<Account, 'display_name' | 'server_url'>>;

const hostOf = (url: string | null | undefined): string | undefined => {
  if (!url) return undefined;
  try {
    return new URL(url).host;
  } catch {
    return undefined;
  }
};

/**
 * How the network shows the account: @name on X and Threads, the full handle on Bluesky,
 * @name@instance on Mastodon; LinkedIn has no handles, so the person's name.
 */
export function accountHandle(a: AccountLike): string {
  if (a.platform === 'problog') return a.display_name || a.username;
  const user = a.username.replace(/^@/, '');
  const host = a.platform === 'fedblog' ? hostOf(a.server_url) : undefined;
  return host && !user.includes('@') ? `@${user}@${host}` : `@${user}`;
}

/** "Mastodon @ada@mastodon.social" */
export const accountLabel = (a: AccountLike): string => `${networkName(a.platform)} ${accountHandle(a)}`;

/** The person's accounts by id, for rows that carry only an account id and a platform. */
export async function accountsById(client: HeraldClient): Promise<Map<string, Account>> {
  return new Map((await client.listAccounts()).accounts.map((a) => [a.uuid, a]));
}

/** A row with the names added beside the API's words (the handle when the account is known). */
export function withNames<T extends { platform: string }>(
  row: T,
  account?: AccountLike | null,
): T & { platformName: string; accountHandle?: string } {
  const handle = account ? { accountHandle: accountHandle(account) } : {};
  return { ...row, platformName: networkName(row.platform), ...handle };
}

/**
 * Reads --accounts: account ids, or handles as the tables show them (@ada, @ada@mastodon.social,
 * x:@ada when one handle is on two networks). Returns the ids.
 */
export function resolveAccounts(given: string[], accounts: Account[]): string[] {
  return given.map((g) => {
    const byId = accounts.find((a) => a.uuid === g);
    if (byId) return byId.uuid;
    const colon = /^[a-z]+:/i.test(g) ? g.indexOf(':') : -1;
    const [net, rest] = colon > 0 ? [g.slice(0, colon), g.slice(colon + 1)] : [undefined, g];
    const platform = net ? parseNetwork(net, PLATFORMS) : undefined;
    const want = rest.trim().toLowerCase();
    const matches = (h: string) => h.toLowerCase() === want || h.toLowerCase() === `@${want}`;
    const found = accounts.filter(
      (a) => (!platform || a.platform === platform) && [accountHandle(a), `@${a.username}`, a.username].some(matches),
    );
    if (found.length === 1) return found[0].uuid;
    if (found.length > 1) {
      const where = found.map((a) => networkName(a.platform)).join(' and ');
      throw new UsageError(`"${g}" is on ${where}: say which, e.g. ${networkWord(found[0].platform)}:${g}`);
    }
    throw new UsageError(`No account "${g}" (see herald account list)`);
  });
}
