/** Social sets (named groups of accounts a draft goes to) and their ordered members. */
import type { Sqlite } from '../connection.js';
import type { socialSets } from '../schema.js';
import { lazyStatements } from './statements.js';

export type SetRow = typeof socialSets.$inferSelect;

export interface SetMember {
  setId: string;
  accountId: string;
  platform: string;
  username: string;
}

const SET_COLUMNS =
  'id, user_id AS userId, name, is_default AS isDefault, created_at AS createdAt, time_zone AS timeZone, slots';

/** SQLite stores is_default as 0 or 1; rows answer it as a boolean. */
const toRow = (r: unknown): SetRow | undefined =>
  r ? { ...(r as SetRow), isDefault: (r as { isDefault: number }).isDefault === 1 } : undefined;

export class SocialSetsRepo {
  private readonly s;

  constructor(sqlite: Sqlite) {
    this.s = lazyStatements({
      listOf: () => sqlite.prepare(`SELECT ${SET_COLUMNS} FROM social_sets WHERE user_id = ? ORDER BY created_at, id`),
      own: () => sqlite.prepare(`SELECT ${SET_COLUMNS} FROM social_sets WHERE id = ? AND user_id = ?`),
      defaultOf: () => sqlite.prepare(`SELECT ${SET_COLUMNS} FROM social_sets WHERE user_id = ? AND is_default = 1`),
      anyOf: () => sqlite.prepare('SELECT id FROM social_sets WHERE user_id = ? LIMIT 1').pluck(),
      members: () =>
        sqlite.prepare(`SELECT m.social_set_id AS setId, a.id AS accountId, a.platform, a.username FROM
                social_set_accounts m
        JOIN accounts a ON a.id = m.account_id WHERE m.social_set_id IN (SELECT value FROM json_each(?)) ORDER BY
                m.position`),
      memberIds: () => sqlite.prepare('SELECT account_id FROM social_set_accounts WHERE social_set_id = ?').pluck(),
      insert: () =>
        sqlite.prepare(
          'INSERT INTO social_sets (id, user_id, name, is_default, created_at, time_zone, slots) VALUES ' +
            '(@id, @userId, @name, @isDefault, @createdAt, @timeZone, @slots)',
        ),
      setTimeZone: () => sqlite.prepare('UPDATE social_sets SET time_zone = ? WHERE id = ?'),
      setSlots: () => sqlite.prepare('UPDATE social_sets SET slots = ? WHERE id = ?'),
      rename: () => sqlite.prepare('UPDATE social_sets SET name = ? WHERE id = ?'),
      clearDefault: () => sqlite.prepare('UPDATE social_sets SET is_default = 0 WHERE user_id = ?'),
      markDefault: () => sqlite.prepare('UPDATE social_sets SET is_default = 1 WHERE id = ?'),
      delete: () => sqlite.prepare('DELETE FROM social_sets WHERE id = ?'),
      clearMembers: () => sqlite.prepare('DELETE FROM social_set_accounts WHERE social_set_id = ?'),
      addMember: () =>
        sqlite.prepare('INSERT INTO social_set_accounts (social_set_id, account_id, position) VALUES (?, ?, ?)'),
    });
  }

  /** Oldest first. */
  listOf(userId: string): SetRow[] {
    return this.s.listOf.all(userId).map((r) => toRow(r)!);
  }

  own(userId: string, id: string): SetRow | undefined {
    return toRow(this.s.own.get(id, userId));
  }

  defaultOf(userId: string): SetRow | undefined {
    return toRow(this.s.defaultOf.get(userId));
  }

  /** Whether the user has any set at all. */
  hasAny(userId: string): boolean {
    return this.s.anyOf.get(userId) !== undefined;
  }

  /** The accounts of these sets, in each set's order. */
  members(setIds: string[]): SetMember[] {
    return this.s.members.all(JSON.stringify(setIds)) as SetMember[];
  }

  memberIds(setId: string): string[] {
    return this.s.memberIds.all(setId) as string[];
  }

  insert(row: SetRow): void {
    this.s.insert.run({ ...row, isDefault: row.isDefault ? 1 : 0 });
  }

  setTimeZone(id: string, zone: string): void {
    this.s.setTimeZone.run(zone, id);
  }

  /** `slots`: the JSON text of the set's weekly slots. */
  setSlots(id: string, slots: string): void {
    this.s.setSlots.run(slots, id);
  }

  rename(id: string, name: string): void {
    this.s.rename.run(name, id);
  }

  /** The user's one default set becomes `id` (call inside a transaction). */
  makeDefault(userId: string, id: string): void {
    this.s.clearDefault.run(userId);
    this.s.markDefault.run(id);
  }

  /** Drafts keep existing; their social_set_id becomes NULL through the foreign key. */
  delete(id: string): void {
    this.s.delete.run(id);
  }

  /** Replaces the members, in this order (call inside a transaction). */
  setMembers(setId: string, accountIds: string[]): void {
    this.s.clearMembers.run(setId);
    accountIds.forEach((accountId, position) => this.s.addMember.run(setId, accountId, position));
  }

  addMember(setId: string, accountId: string, position: number): void {
    this.s.addMember.run(setId, accountId, position);
  }
}
