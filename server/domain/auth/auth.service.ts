import { type Deps } from '../deps.js';
import type { UntilChanged } from '../../db/change-token.js';
import type { Transactions } from '../../db/repos/transactions.js';
import type { KeyLookupRow, KeysRepo, UserRow, UsersRepo } from '../../db/repos/users-keys.repo.js';
import { HeraldError } from '../../core/errors.js';
import { normaliseEmail, UsersService } from '../users/users.service.js';
import { generateApiKey, hashApiKey, looksLikeApiKey, previewApiKey } from './keys.js';
import { dummyPasswordHash, hashPassword, needsRehash, verifyPassword } from './passwords.js';
import { AttemptThrottle, FailureThrottle, RateLimiter, sleep, type Tier } from './rate-limit.js';

export const DEFAULT_KEY_NAME = 'Default API Key';
export const KEY_WARNING = 'Store this API key now: the full key is shown only once.';
const LAST_USED_EVERY_MS = 60_000;
const DAY = 86_400_000;
/** A sign-in session's key lives this long after its last use (extended at most once a day). */
export const SESSION_MS = 30 * DAY;
/**
 * Keys one user may hold through POST /auth/api-keys: far more than anyone scripts with, and it
 * keeps a leaked key from filling the table. Sign-in keys are not counted: they expire and
 * sign-out revokes them.
 */
export const MAX_KEYS_PER_USER = 100;
const TIER_RANK: Record<Tier, number> = { free: 0, pro: 1, enterprise: 2 };

/**
 * Sign-in guesses. Per e-mail: 5 free, then 1 s doubling to 5 min. Per client (the remote
 * address; over loopback every local program is the one client, so this bounds guessing across
 * many e-mails on the machine): 20 free, then the same. Records are forgotten after an hour quiet.
 */
export const LOGIN_LIMITS = {
  email: { free: 5, baseMs: 1000, maxMs: 5 * 60_000, forgetMs: 60 * 60_000 },
  client: { free: 20, baseMs: 1000, maxMs: 5 * 60_000, forgetMs: 60 * 60_000 },
};

export interface AuthContext {
  user: UserRow;
  keyId: string;
  tier: Tier;
  expiresAt: string | null;
  sliding: boolean;
}

export interface IssuedKey {
  id: string;
  key: string;
  keyPreview: string;
  name: string;
  tier: Tier;
  status: 'created';
  createdAt: string;
  lastUsed: null;
  expiresAt: string | null;
}

export interface KeyOptions {
  expiresAt?: string | null;
  /** A sign-in session: expires SESSION_MS after its last use. */
  session?: boolean;
}

export class AuthService {
  readonly limiter: RateLimiter;
  private readonly loginThrottle: AttemptThrottle;
  private readonly badKeyThrottle: FailureThrottle;
  /** When each key's lastUsed was last written, so it is written at most once a minute. */
  private readonly lastUsedWrites = new Map<string, number>();
  /** Key lookups, kept while the database is unchanged (a revoked key or edited user moves it). */
  private readonly lookups: UntilChanged<string, KeyLookupRow | undefined>;

  constructor(
    private readonly deps: Deps,
    private readonly users: UsersService,
    private readonly repos: { keys: KeysRepo; users: UsersRepo; tx: Transactions },
  ) {
    this.limiter = new RateLimiter(deps.clock, { free: 100, pro: 1000, enterprise: deps.config.enterpriseLimit });
    this.loginThrottle = new AttemptThrottle(deps.clock, LOGIN_LIMITS);
    this.badKeyThrottle = new FailureThrottle(deps.clock, { free: 20, baseMs: 50, maxMs: 2000, forgetMs: 60_000 });
    this.lookups = repos.tx.untilChanged();
  }

  /**
   * Makes the hash an unknown e-mail's sign-in is compared against, so the first unknown e-mail
   * is not the one answer that takes two hashes. The composition root calls it a moment after the
   * API answers: at the default cost it keeps a core busy for about a quarter of a second and
   * takes 128 MB, which at start-up would compete with the first requests.
   */
  prepare(): void {
    void dummyPasswordHash(this.cost).catch(() => undefined);
  }

  private get cost() {
    return { log2N: this.deps.config.passwordCostLog2 };
  }

  /**
   * POST /auth/login: a new `Default API Key` on every success (with `session`, one that expires
   * SESSION_MS after its last use). The attempt is counted before anything is awaited (see
   * AttemptThrottle), and an unknown e-mail, or a user with no password, costs one hash like a
   * wrong password does. A good password stored at an older cost is rehashed at today's.
   */
  async login(
    email: string,
    password: string,
    client = 'local',
    opts: { session?: boolean } = {},
  ): Promise<{ user: UserRow; key: IssuedKey }> {
    const id = normaliseEmail(email);
    // The e-mail first: a success clears its record and only takes this attempt off the client's.
    const attempt = this.loginThrottle.reserve({ email: id, client });
    if (!attempt.ok) {
      throw new HeraldError('RATE_LIMITED', `Too many failed sign-ins; try again in ${attempt.retryAfter} s`, {
        retryAfter: attempt.retryAfter,
      });
    }
    const user = this.users.byEmail(id);
    const stored = user?.passwordHash ?? (await dummyPasswordHash(this.cost));
    const ok = await verifyPassword(password, stored);
    if (!user) throw new HeraldError('USER_NOT_FOUND', 'No user has this e-mail address');
    if (!ok || user.passwordHash === null)
      throw new HeraldError('INVALID_CREDENTIALS', 'The e-mail or password is wrong');
    attempt.settle(true);
    if (needsRehash(user.passwordHash, this.cost)) {
      const rehashed = await hashPassword(password, this.cost);
      // Only if the password was not changed meanwhile.
      this.repos.users.replacePasswordHash(user.id, user.passwordHash, rehashed);
    }
    return { user, key: this.issueKey(user.id, DEFAULT_KEY_NAME, user.defaultTier as Tier, { session: opts.session }) };
  }

  issueKey(userId: string, name: string, tier: Tier, opts: KeyOptions = {}): IssuedKey {
    const key = generateApiKey();
    const now = this.deps.clock.now();
    const createdAt = new Date(now).toISOString();
    const expiresAt = opts.session ? new Date(now + SESSION_MS).toISOString() : (opts.expiresAt ?? null);
    const row = {
      id: this.deps.ids.uuid(),
      userId,
      name,
      keyHash: hashApiKey(key),
      preview: previewApiKey(key),
      status: 'created',
      tier,
      lastUsed: null,
      createdAt,
      expiresAt,
      sliding: opts.session === true,
    };
    this.repos.tx.run(() => {
      // Sessions that ran out are of no use to anyone; other expired keys stay listed until deleted.
      if (opts.session) this.repos.keys.dropExpiredSessions(userId, createdAt);
      this.repos.keys.insert(row);
    });
    return {
      id: row.id,
      key,
      keyPreview: row.preview,
      name,
      tier,
      status: 'created',
      createdAt,
      lastUsed: null,
      expiresAt,
    };
  }

  /**
   * POST /auth/api-keys. A key mints keys of its own tier or lower, and a key with a fixed expiry
   * mints none that outlives it (else a short-lived key could turn itself into a permanent one).
   * A session key (sliding) was got with the password, so it may mint keys that never expire.
   */
  createKey(caller: AuthContext, name: string, tier?: Tier, expiresAt?: string): IssuedKey {
    const own = TIER_RANK[caller.tier] ?? 0;
    const wanted =
      tier ??
      ((TIER_RANK[caller.user.defaultTier as Tier] ?? 0) <= own ? (caller.user.defaultTier as Tier) : caller.tier);
    if (TIER_RANK[wanted] > own) {
      throw new HeraldError(
        'UNAUTHORIZED',
        `This key is ${caller.tier} tier; it can create keys of its own tier or lower only`,
      );
    }
    const now = this.deps.clock.now();
    let expiry = expiresAt === undefined ? null : new Date(Date.parse(expiresAt)).toISOString();
    if (expiry !== null && Date.parse(expiry) <= now) {
      throw new HeraldError('INVALID_INPUT', 'expiresAt must be in the future', {
        details: [{ path: 'body.expiresAt', message: 'must be in the future' }],
      });
    }
    if (caller.expiresAt && !caller.sliding) {
      if (expiry === null) expiry = caller.expiresAt;
      else if (Date.parse(expiry) > Date.parse(caller.expiresAt)) {
        throw new HeraldError(
          'UNAUTHORIZED',
          `This key expires at ${caller.expiresAt}; it cannot create a key that outlives it`,
        );
      }
    }
    const held = this.repos.keys.countLasting(caller.user.id);
    if (held >= MAX_KEYS_PER_USER) {
      throw new HeraldError('UNAUTHORIZED', `You have ${held} API keys, the most one user may hold; delete some first`);
    }
    return this.issueKey(caller.user.id, name, wanted, { expiresAt: expiry });
  }

  /** `currentKeyId`: the caller's own key, marked so the UI can say which sign-in is this browser. */
  listKeys(userId: string, currentKeyId?: string) {
    return this.repos.keys.listOf(userId).map((k) => ({
      id: k.id,
      key: k.preview,
      name: k.name,
      status: k.status as 'created' | 'active',
      tier: k.tier as Tier,
      lastUsed: k.lastUsed,
      createdAt: k.createdAt,
      expiresAt: k.expiresAt,
      session: k.sliding,
      current: k.id === currentKeyId,
    }));
  }

  deleteKey(userId: string, keyId: string): void {
    if (!this.repos.keys.delete(userId, keyId)) throw new HeraldError('NOT_FOUND', 'API key not found');
    this.limiter.forget(keyId);
    this.lastUsedWrites.delete(keyId);
  }

  /** POST /auth/logout: the calling key stops working at once. */
  logout(caller: AuthContext): void {
    this.deleteKey(caller.user.id, caller.keyId);
  }

  /**
   * Resolves the `svc-key` header to its user. Unknown, revoked and malformed keys get the same
   * answer; a flood of bad keys is slowed down. An expired key gets TOKEN_EXPIRED.
   */
  async authenticate(rawKey: string | undefined): Promise<AuthContext> {
    const known = this.authenticateKnown(rawKey);
    if (known) return known;
    const delay = this.badKeyThrottle.delayFor('*');
    this.badKeyThrottle.fail('*');
    if (delay > 0) await sleep(delay);
    throw new HeraldError('INVALID_API_KEY', 'The svc-key header is missing, or the key is invalid or revoked');
  }

  /**
   * The key's user and tier when the key is valid, else undefined; throws TOKEN_EXPIRED for a
   * known key past its expiry (checked against the clock on every call: the lookup cache keeps
   * the row, never the verdict). Synchronous, so a keyed
   * request with a good key costs no promise (every keyed request starts here); a bad key goes
   * through authenticate(), which slows repeated failures down.
   */
  authenticateKnown(rawKey: string | undefined): AuthContext | undefined {
    const hash = rawKey && looksLikeApiKey(rawKey) ? hashApiKey(rawKey) : undefined;
    const row = hash ? this.lookups.get(hash, () => this.repos.keys.lookup(hash)) : undefined;
    if (!row) return undefined;
    const now = this.deps.clock.now();
    if (row.expiresAt !== null && Date.parse(row.expiresAt) <= now) {
      throw new HeraldError(
        'TOKEN_EXPIRED',
        `This API key expired at ${row.expiresAt}; sign in again or create a new key`,
      );
    }
    this.noteUse(row, now);
    const { keyId, tier, status: _status, lastUsed: _lastUsed, expiresAt, sliding, ...user } = row;
    return { user, keyId, tier: tier as Tier, expiresAt, sliding: sliding === 1 };
  }

  private noteUse(row: KeyLookupRow, now: number): void {
    // Sliding sessions move their expiry forward at most once a day: no write per request, and
    // the write moves the change token, so the cached row is read again with the new expiry.
    if (row.sliding === 1 && row.expiresAt !== null && Date.parse(row.expiresAt) - now < SESSION_MS - DAY) {
      this.repos.keys.extend(row.keyId, new Date(now + SESSION_MS).toISOString());
    }
    const last = this.lastUsedWrites.get(row.keyId) ?? (row.lastUsed ? Date.parse(row.lastUsed) : undefined);
    if (row.status === 'created' || last === undefined || now - last >= LAST_USED_EVERY_MS) {
      this.repos.keys.touch(row.keyId, new Date(now).toISOString());
      this.lastUsedWrites.set(row.keyId, now);
    }
  }
}
