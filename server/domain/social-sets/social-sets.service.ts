import type { SocialSet } from '../../contracts/social-sets.js';
import { nowIso } from '../../core/clock.js';
import { type Deps } from '../deps.js';
import type { AccountsRepo } from '../../db/repos/accounts.repo.js';
import type { SetRow, SocialSetsRepo } from '../../db/repos/social-sets.repo.js';
import type { Transactions } from '../../db/repos/transactions.js';
import { HeraldError } from '../../core/errors.js';
import { canonicalTimeZone, machineTimeZone, slotProblems, sortSlots, type Slot } from '../../../time/index.js';

/** A set's zone: its own, else (sets made before zones existed) the system's. */
export const zoneOf = (row: SetRow): string => row.timeZone ?? machineTimeZone();

/** The zone in its canonical spelling; an unknown one is 400 naming the field. */
function checkZone(zone: string | undefined): string | undefined {
  if (zone === undefined) return undefined;
  const canonical = canonicalTimeZone(zone);
  if (canonical) return canonical;
  throw new HeraldError(
    'INVALID_INPUT',
    `Unknown time zone "${zone.slice(0, 64)}": use an IANA name such as Europe/Berlin`,
    {
      details: [{ path: 'timeZone', message: 'not an IANA time zone' }],
    },
  );
}

function parseSlots(json: string): Slot[] {
  try {
    const v = JSON.parse(json) as unknown;
    return Array.isArray(v) ? (v as Slot[]) : [];
  } catch {
    return [];
  }
}

export class SocialSetsService {
  private readonly sets: SocialSetsRepo;

  constructor(
    private readonly deps: Deps,
    private readonly repos: { socialSets: SocialSetsRepo; accounts: AccountsRepo; tx: Transactions },
    private readonly settings: { userZone(userId: string): string },
  ) {
    this.sets = repos.socialSets;
  }

  private toDto(rows: SetRow[]): SocialSet[] {
    if (rows.length === 0) return [];
    const members = this.sets.members(rows.map((r) => r.id));
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      isDefault: r.isDefault,
      createdAt: r.createdAt,
      timeZone: zoneOf(r),
      accounts: members
        .filter((m) => m.setId === r.id)
        .map((m) => ({
          accountId: m.accountId,
          platform: m.platform as SocialSet['accounts'][number]['platform'],
          username: m.username,
        })),
    }));
  }

  list(userId: string): SocialSet[] {
    return this.toDto(this.sets.listOf(userId));
  }

  /** The set's own row (NOT_FOUND when it is not the user's). */
  row(userId: string, id: string): SetRow {
    const row = this.sets.own(userId, id);
    if (!row) throw new HeraldError('NOT_FOUND', 'Social set not found');
    return row;
  }

  get(userId: string, id: string): SocialSet {
    return this.toDto([this.row(userId, id)])[0];
  }

  /** The user's default set, if any. */
  defaultSet(userId: string): SetRow | undefined {
    return this.sets.defaultOf(userId);
  }

  private checkAccounts(userId: string, accountIds: string[]): string[] {
    const unique = [...new Set(accountIds)];
    if (unique.length === 0) return unique;
    const owned = this.repos.accounts.ownIds(userId, unique);
    const missing = unique.filter((id) => !owned.includes(id));
    if (missing.length > 0) {
      throw new HeraldError('INVALID_INPUT', `Unknown account ids: ${missing.join(', ')}`, {
        details: missing.map((id) => ({ path: 'accountIds', message: `no account ${id}` })),
      });
    }
    return unique;
  }

  create(
    userId: string,
    input: { name: string; accountIds?: string[]; isDefault?: boolean; timeZone?: string },
  ): SocialSet {
    // A new set starts in the user's zone unless it names its own.
    const zone = checkZone(input.timeZone) ?? this.settings.userZone(userId);
    return this.repos.tx.run(() => {
      const ids = this.checkAccounts(userId, input.accountIds ?? []);
      const id = this.deps.ids.uuid();
      const first = !this.defaultSet(userId);
      this.sets.insert({
        id,
        userId,
        name: input.name,
        isDefault: false,
        createdAt: nowIso(this.deps.clock),
        timeZone: zone,
        slots: '[]',
      });
      this.sets.setMembers(id, ids);
      // The first set a user makes becomes the default, so drafts have somewhere to go.
      if (first || input.isDefault) this.sets.makeDefault(userId, id);
      return this.get(userId, id);
    });
  }

  update(
    userId: string,
    input: { id: string; name?: string; accountIds?: string[]; isDefault?: boolean; timeZone?: string },
  ): SocialSet {
    const zone = checkZone(input.timeZone);
    return this.repos.tx.run(() => {
      const row = this.row(userId, input.id);
      if (input.name !== undefined) this.sets.rename(row.id, input.name);
      if (zone !== undefined) this.sets.setTimeZone(row.id, zone);
      if (input.accountIds !== undefined) this.sets.setMembers(row.id, this.checkAccounts(userId, input.accountIds));
      if (input.isDefault === true) this.sets.makeDefault(userId, row.id);
      if (input.isDefault === false && row.isDefault) {
        throw new HeraldError('INVALID_INPUT', 'A default set stays default until another set is made default', {
          details: [{ path: 'isDefault', message: 'mark another set as default instead' }],
        });
      }
      return this.get(userId, row.id);
    });
  }

  /** The set's weekly queue slots, in its zone, sorted. */
  slots(userId: string, id: string): { socialSetId: string; timeZone: string; slots: Slot[] } {
    const row = this.row(userId, id);
    return { socialSetId: row.id, timeZone: zoneOf(row), slots: parseSlots(row.slots) };
  }

  /**
   * Replaces the slots. A bad day or time, or two slots closer than 6 minutes, is 400 naming the
   * slot (`slots.1.time`). Drafts already queued keep their times.
   */
  setSlots(userId: string, id: string, slots: Slot[]): { socialSetId: string; timeZone: string; slots: Slot[] } {
    const problems = slotProblems(slots);
    if (problems.length > 0) {
      throw new HeraldError(
        'INVALID_INPUT',
        `Invalid slots: ${problems.map((p) => `slots.${p.index}.${p.field} ${p.message}`).join('; ')}`.slice(0, 500),
        {
          details: problems.map((p) => ({ path: `slots.${p.index}.${p.field}`, message: p.message })),
        },
      );
    }
    const row = this.row(userId, id);
    const sorted = sortSlots(slots.map((s) => ({ day: s.day, time: s.time })));
    this.sets.setSlots(row.id, JSON.stringify(sorted));
    return { socialSetId: row.id, timeZone: zoneOf(row), slots: sorted };
  }

  delete(userId: string, id: string): void {
    this.repos.tx.run(() => {
      const row = this.row(userId, id);
      // Drafts keep existing; their social_set_id becomes NULL through the foreign key.
      this.sets.delete(row.id);
      if (row.isDefault) {
        const oldest = this.sets.listOf(userId)[0];
        if (oldest) this.sets.makeDefault(userId, oldest.id);
      }
    });
  }

  /**
   * Adds an account to a set (used when an account is connected): `create_new` makes a set named
   * after the handle; otherwise the given set, else the default set, else a new `Default` set.
   */
  attachAccount(
    userId: string,
    accountId: string,
    opts: { socialSetId?: string; mode?: 'create_new' | 'add_to_existing'; handle: string },
  ): string {
    return this.repos.tx.run(() => {
      let setId: string;
      if (opts.mode === 'create_new') {
        setId = this.create(userId, { name: opts.handle }).id;
      } else if (opts.socialSetId) {
        setId = this.row(userId, opts.socialSetId).id;
      } else {
        setId = this.defaultSet(userId)?.id ?? this.create(userId, { name: 'Default', isDefault: true }).id;
      }
      const members = this.sets.memberIds(setId);
      if (!members.includes(accountId)) this.sets.addMember(setId, accountId, members.length);
      return setId;
    });
  }
}
