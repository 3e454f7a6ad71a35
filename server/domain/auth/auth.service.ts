import { and, desc, eq } from 'drizzle-orm';
import { nowIso } from '../../core/clock.js';
import { type Deps } from '../deps.js';
import { UntilChanged } from '../../db/change-token.js';
import { apiKeys } from '../../db/schema.js';
import { HeraldError } from '../../core/errors.js';
import { normaliseEmail, USER_COLUMNS, type UserRow, UsersService } from '../users/users.service.js';
import { generateApiKey, hashApiKey, looksLikeApiKey, previewApiKey } from './keys.js';
import { dummyPasswordHash, verifyPassword } from './passwords.js';
import { FailureThrottle, RateLimiter, sleep, type Tier } from './rate-limit.js';

export const DEFAULT_KEY_NAME = 'Default API Key';
export const KEY_WARNING = 'Store this API key now: the full key is shown only once.';
const LAST_USED_EVERY_MS = 60_000;

export interface AuthContext {
  user: UserRow;
  keyId: string;
  tier: Tier;
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
}

interface KeyLookupRow {
  keyId: string;
  tier: Tier;
  status: string;
  lastUsed: string | null;
}

export class AuthService {
  readonly limiter: RateLimiter;
  private readonly loginThrottle: FailureThrottle;
  private readonly badKeyThrottle: FailureThrottle;
  /** When each key's lastUsed was last written, so it is written at most once a minute. */
  private readonly lastUsedWrites = new Map<string, number>();
  private readonly lookupKey;
  private readonly touchKey;
  /** Key lookups, kept while the database is unchanged (a revoked key or edited user moves it). */
  private readonly keys: UntilChanged<string, (KeyLookupRow & UserRow) | undefined>;

  constructor(private readonly deps: Deps, private readonly users: UsersService) {
    this.limiter = new RateLimiter(deps.clock, { free: 100, pro: 1000, enterprise: deps.config.enterpriseLimit });
    this.loginThrottle = new FailureThrottle(deps.clock);
    this.badKeyThrottle = new FailureThrottle(deps.clock, { free: 20, baseMs: 50, maxMs: 2000, forgetMs: 60_000 });
    // Prepared once: this runs on every keyed request. The key and its user in one statement.
    this.lookupKey = deps.sqlite.prepare(
      `SELECT k.id AS keyId, k.tier AS tier, k.status AS status, k.last_used AS lastUsed, ${USER_COLUMNS}
       FROM api_keys k JOIN users u ON u.id = k.user_id WHERE k.key_hash = ?`,
    );
    this.touchKey = deps.sqlite.prepare("UPDATE api_keys SET last_used = ?, status = 'active' WHERE id = ?");
    this.keys = new UntilChanged(deps.sqlite);
  }

  /** POST /auth/login: a new `Default API Key` on every success. */
  async login(email: string, password: string): Promise<{ user: UserRow; key: IssuedKey }> {
    const id = normaliseEmail(email);
    const delay = this.loginThrottle.delayFor(id);
    if (delay > 0) await sleep(delay);
    const user = this.users.byEmail(id);
    if (!user) {
      await verifyPassword(password, await dummyPasswordHash());
      this.loginThrottle.fail(id);
      throw new HeraldError('USER_NOT_FOUND', 'No user has this e-mail address');
    }
    const ok = user.passwordHash !== null && (await verifyPassword(password, user.passwordHash));
    if (!ok) {
      this.loginThrottle.fail(id);
      throw new HeraldError('INVALID_CREDENTIALS', 'The e-mail or password is wrong');
    }
    this.loginThrottle.succeed(id);
    return { user, key: this.issueKey(user.id, DEFAULT_KEY_NAME, user.defaultTier as Tier) };
  }

  issueKey(userId: string, name: string, tier: Tier): IssuedKey {
    const key = generateApiKey();
    const row = {
      id: this.deps.ids.uuid(),
      userId,
      name,
      keyHash: hashApiKey(key),
      preview: previewApiKey(key),
      status: 'created',
      tier,
      lastUsed: null,
      createdAt: nowIso(this.deps.clock),
    };
    this.deps.db.insert(apiKeys).values(row).run();
    return { id: row.id, key, keyPreview: row.preview, name, tier, status: 'created', createdAt: row.createdAt, lastUsed: null };
  }

  createKey(user: UserRow, name: string, tier?: Tier): IssuedKey {
    return this.issueKey(user.id, name, tier ?? (user.defaultTier as Tier));
  }

  listKeys(userId: string) {
    return this.deps.db.select().from(apiKeys).where(eq(apiKeys.userId, userId)).orderBy(desc(apiKeys.createdAt)).all()
      .map((k) => ({ id: k.id, key: k.preview, name: k.name, status: k.status as 'created' | 'active', tier: k.tier as Tier, lastUsed: k.lastUsed, createdAt: k.createdAt }));
  }

  deleteKey(userId: string, keyId: string): void {
    const res = this.deps.db.delete(apiKeys).where(and(eq(apiKeys.id, keyId), eq(apiKeys.userId, userId))).run();
    if (res.changes === 0) throw new HeraldError('NOT_FOUND', 'API key not found');
    this.limiter.forget(keyId);
    this.lastUsedWrites.delete(keyId);
  }

  /**
   * Resolves the `svc-key` header to its user. Unknown, revoked and malformed keys get the same
   * answer; a flood of bad keys is slowed down.
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
   * The key's user and tier when the key is valid, else undefined. Synchronous, so a keyed
   * request with a good key costs no promise (every keyed request starts here); a bad key goes
   * through authenticate(), which slows repeated failures down.
   */
  authenticateKnown(rawKey: string | undefined): AuthContext | undefined {
    const hash = rawKey && looksLikeApiKey(rawKey) ? hashApiKey(rawKey) : undefined;
    const row = hash ? this.keys.get(hash, () => this.lookupKey.get(hash) as (KeyLookupRow & UserRow) | undefined) : undefined;
    if (!row) return undefined;
    this.noteUse(row);
    const { keyId, tier, status: _status, lastUsed: _lastUsed, ...user } = row;
    return { user, keyId, tier };
  }

  private noteUse(row: KeyLookupRow): void {
    const now = this.deps.clock.now();
    const last = this.lastUsedWrites.get(row.keyId) ?? (row.lastUsed ? Date.parse(row.lastUsed) : undefined);
    if (row.status === 'created' || last === undefined || now - last >= LAST_USED_EVERY_MS) {
      this.touchKey.run(new Date(now).toISOString(), row.keyId);
      this.lastUsedWrites.set(row.keyId, now);
    }
  }
}
