import { nowIso } from '../../core/clock.js';
import { type Deps } from '../deps.js';
import type { Transactions } from '../../db/repos/transactions.js';
import type { UserRow, UsersRepo } from '../../db/repos/users-keys.repo.js';
import { HeraldError } from '../../core/errors.js';
import { hashPassword } from '../auth/passwords.js';

export type { UserRow };

export const normaliseEmail = (email: string) => email.trim().toLowerCase();

const EMAIL = /^[^\s@]+@[^\s@]+$/;

export class UsersService {
  constructor(
    private readonly deps: Deps,
    private readonly repo: UsersRepo,
    private readonly tx: Transactions,
  ) {}

  count(): number {
    return this.repo.count();
  }

  byEmail(email: string): UserRow | undefined {
    return this.repo.byEmail(normaliseEmail(email));
  }

  byId(id: string): UserRow | undefined {
    return this.repo.byId(id);
  }

  /** The owner of the install: its first user. */
  /** The install's owner (the first user), if set up. */
  ownerId(): string | undefined {
    return this.repo.ownerId();
  }

  isOwner(id: string): boolean {
    return this.repo.ownerId() === id;
  }

  /** Keeps every user's zone column equal to the zone setting (SettingsService.userZone is the one to read). */
  followZone(zone: string): void {
    this.repo.setTimezoneAll(zone);
  }

  /**
   * Creates a user; `password` is optional for users who sign in only through OAuth. With
   * `first`, only on an install with no user yet (the owner), else ALREADY_SET_UP.
   *
   * The checks run twice: once up front so a doomed request costs no hashing, and again in the
   * same synchronous transaction as the insert, after the hash. Between the two the request
   * awaited scrypt, and twenty requests may have passed the first check together; only the
   * second, with nothing awaited before the insert, decides.
   */
  async create(
    input: { email: string; password?: string; nickname?: string; provider?: string; timezone?: string },
    opts: { first?: boolean } = {},
  ): Promise<UserRow> {
    const email = normaliseEmail(input.email);
    if (!EMAIL.test(email) || email.length > 320)
      throw new HeraldError('INVALID_INPUT', 'A valid e-mail address is required');
    if (input.password !== undefined && input.password.length < 8) {
      throw new HeraldError('INVALID_INPUT', 'The password must be at least 8 characters long');
    }
    const check = () => {
      if (opts.first && this.count() > 0)
        throw new HeraldError('ALREADY_SET_UP', 'Herald already has its owner; sign in instead');
      if (this.byEmail(email)) throw new HeraldError('INVALID_INPUT', 'A user with this e-mail already exists');
    };
    check();
    const row: UserRow = {
      id: this.deps.ids.uuid(),
      email,
      passwordHash:
        input.password === undefined
          ? null
          : await hashPassword(input.password, { log2N: this.deps.config.passwordCostLog2 }),
      nickname: input.nickname ?? email.split('@')[0],
      avatarUrl: '',
      timezone: input.timezone ?? this.deps.config.timeZone,
      locale: 'en',
      provider: input.provider ?? 'password',
      defaultTier: this.deps.config.defaultTier,
      createdAt: nowIso(this.deps.clock),
    };
    // IMMEDIATE: the write lock is taken before the check, so another process (herald init on
    // the same data folder) cannot slip its owner in between.
    this.tx.immediate(() => {
      check();
      this.repo.insert(row);
    });
    return row;
  }

  /**
   * The owner of a fresh install, from HERALD_OWNER_EMAIL/PASSWORD. Does nothing once any user
   * exists, so the variables can stay set.
   */
  async ensureOwner(): Promise<UserRow | undefined> {
    const { ownerEmail, ownerPassword } = this.deps.config;
    if (!ownerEmail || !ownerPassword || this.count() > 0) return undefined;
    const owner = await this.create({ email: ownerEmail, password: ownerPassword }, { first: true }).catch(
      (err: unknown) => {
        // Another process made the owner while this one hashed: nothing left to do.
        if (err instanceof HeraldError && err.code === 'ALREADY_SET_UP') return undefined;
        throw err;
      },
    );
    if (!owner) return undefined;
    this.deps.log.info(`Herald created the owner ${owner.email}`);
    return owner;
  }
}
