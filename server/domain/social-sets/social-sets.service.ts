import { and, asc, eq, inArray } from 'drizzle-orm';
import type { SocialSet } from '../../contracts/social-sets.js';
import { nowIso } from '../../core/clock.js';
import { type Deps } from '../deps.js';
import { accounts, socialSetAccounts, socialSets } from '../../db/schema.js';
import { HeraldError } from '../../core/errors.js';

type SetRow = typeof socialSets.$inferSelect;

export class SocialSetsService {
  constructor(private readonly deps: Deps) {}

  private toDto(rows: SetRow[]): SocialSet[] {
    if (rows.length === 0) return [];
    const members = this.deps.db
      .select({ setId: socialSetAccounts.socialSetId, accountId: accounts.id, platform: accounts.platform, username: accounts.username })
      .from(socialSetAccounts)
      .innerJoin(accounts, eq(accounts.id, socialSetAccounts.accountId))
      .where(inArray(socialSetAccounts.socialSetId, rows.map((r) => r.id)))
      .orderBy(asc(socialSetAccounts.position))
      .all();
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      isDefault: r.isDefault,
      createdAt: r.createdAt,
      accounts: members.filter((m) => m.setId === r.id).map((m) => ({ accountId: m.accountId, platform: m.platform as SocialSet['accounts'][number]['platform'], username: m.username })),
    }));
  }

  list(userId: string): SocialSet[] {
    const rows = this.deps.db.select().from(socialSets).where(eq(socialSets.userId, userId)).orderBy(asc(socialSets.createdAt), asc(socialSets.id)).all();
    return this.toDto(rows);
  }

  private row(userId: string, id: string): SetRow {
    const row = this.deps.db.select().from(socialSets).where(and(eq(socialSets.id, id), eq(socialSets.userId, userId))).get();
    if (!row) throw new HeraldError('NOT_FOUND', 'Social set not found');
    return row;
  }

  get(userId: string, id: string): SocialSet {
    return this.toDto([this.row(userId, id)])[0];
  }

  /** The user's default set, if any. */
  defaultSet(userId: string): SetRow | undefined {
    return this.deps.db.select().from(socialSets).where(and(eq(socialSets.userId, userId), eq(socialSets.isDefault, true))).get();
  }

  private checkAccounts(userId: string, accountIds: string[]): string[] {
    const unique = [...new Set(accountIds)];
    if (unique.length === 0) return unique;
    const owned = this.deps.db.select({ id: accounts.id }).from(accounts)
      .where(and(eq(accounts.userId, userId), inArray(accounts.id, unique))).all().map((r) => r.id);
    const missing = unique.filter((id) => !owned.includes(id));
    if (missing.length > 0) {
      throw new HeraldError('INVALID_INPUT', `Unknown account ids: ${missing.join(', ')}`, {
        details: missing.map((id) => ({ path: 'accountIds', message: `no account ${id}` })),
      });
    }
    return unique;
  }

  private setMembers(setId: string, accountIds: string[]): void {
    this.deps.db.delete(socialSetAccounts).where(eq(socialSetAccounts.socialSetId, setId)).run();
    accountIds.forEach((accountId, position) => {
      this.deps.db.insert(socialSetAccounts).values({ socialSetId: setId, accountId, position }).run();
    });
  }

  private makeDefault(userId: string, setId: string): void {
    this.deps.db.update(socialSets).set({ isDefault: false }).where(eq(socialSets.userId, userId)).run();
    this.deps.db.update(socialSets).set({ isDefault: true }).where(eq(socialSets.id, setId)).run();
  }

  create(userId: string, input: { name: string; accountIds?: string[]; isDefault?: boolean }): SocialSet {
    return this.deps.db.transaction(() => {
      const ids = this.checkAccounts(userId, input.accountIds ?? []);
      const id = this.deps.ids.uuid();
      const first = !this.defaultSet(userId);
      this.deps.db.insert(socialSets).values({ id, userId, name: input.name, isDefault: false, createdAt: nowIso(this.deps.clock) }).run();
      this.setMembers(id, ids);
      // The first set a user makes becomes the default, so drafts have somewhere to go.
      if (first || input.isDefault) this.makeDefault(userId, id);
      return this.get(userId, id);
    });
  }

  update(userId: string, input: { id: string; name?: string; accountIds?: string[]; isDefault?: boolean }): SocialSet {
    return this.deps.db.transaction(() => {
      const row = this.row(userId, input.id);
      if (input.name !== undefined) this.deps.db.update(socialSets).set({ name: input.name }).where(eq(socialSets.id, row.id)).run();
      if (input.accountIds !== undefined) this.setMembers(row.id, this.checkAccounts(userId, input.accountIds));
      if (input.isDefault === true) this.makeDefault(userId, row.id);
      if (input.isDefault === false && row.isDefault) {
        throw new HeraldError('INVALID_INPUT', 'A default set stays default until another set is made default', { details: [{ path: 'isDefault', message: 'mark another set as default instead' }] });
      }
      return this.get(userId, row.id);
    });
  }

  delete(userId: string, id: string): void {
    this.deps.db.transaction(() => {
      const row = this.row(userId, id);
      // Drafts keep existing; their social_set_id becomes NULL through the foreign key.
      this.deps.db.delete(socialSets).where(eq(socialSets.id, row.id)).run();
      if (row.isDefault) {
        const oldest = this.deps.db.select().from(socialSets).where(eq(socialSets.userId, userId)).orderBy(asc(socialSets.createdAt), asc(socialSets.id)).get();
        if (oldest) this.makeDefault(userId, oldest.id);
      }
    });
  }

  /**
   * Adds an account to a set (used when an account is connected): `create_new` makes a set named
   * after the handle; otherwise the given set, else the default set, else a new `Default` set.
   */
  attachAccount(userId: string, accountId: string, opts: { socialSetId?: string; mode?: 'create_new' | 'add_to_existing'; handle: string }): string {
    return this.deps.db.transaction(() => {
      let setId: string;
      if (opts.mode === 'create_new') {
        setId = this.create(userId, { name: opts.handle }).id;
      } else if (opts.socialSetId) {
        setId = this.row(userId, opts.socialSetId).id;
      } else {
        setId = this.defaultSet(userId)?.id ?? this.create(userId, { name: 'Default', isDefault: true }).id;
      }
      const count = this.deps.db.select({ accountId: socialSetAccounts.accountId }).from(socialSetAccounts).where(eq(socialSetAccounts.socialSetId, setId)).all();
      if (!count.some((c) => c.accountId === accountId)) {
        this.deps.db.insert(socialSetAccounts).values({ socialSetId: setId, accountId, position: count.length }).run();
      }
      return setId;
    });
  }
}
