/**
 * Drafts as files (issue #24 item 5): export a draft as Markdown or JSON, import files, import a
 * CSV of posts with row-level errors. Reading and writing the formats is draft-files.ts (pure);
 * this service resolves what a file names (networks, media) and writes through DraftsService.
 *
 * Decisions:
 * - A CSV row with a time is scheduled at it (docs/decisions.md §22: the CSV is bulk scheduling), one
 *   entry per target account as POST /microblog/schedule makes, unless `schedule=false`. A
 *   Markdown or JSON file's time stays on the draft unless `schedule=true`. Scheduling is checked
 *   inside the import's transaction (a row that cannot be scheduled is a row error) and written
 *   once the drafts are. The CSV import refuses a row whose time is past or more than two years
 *   ahead, since those rows could never be scheduled.
 * - `timeZone` is a label (and the zone of a local time in the file); drafts keep instants, so
 *   an export names a zone only when asked (`?timeZone=`).
 * - Media: the server never reads a path a file names; it takes media ids. `herald draft import`
 *   uploads the files a Markdown or JSON file names and sends their ids.
 * - `language` (BCP 47) and `linkCard` travel with the draft both ways; a CSV row may name its
 *   language in a `language` column.
 */
import type { MetricsRepo } from '../../db/repos/metrics.repo.js';
import { withMetrics } from './draft-file-metrics.js';
import type { Account } from '../../contracts/accounts.js';
import { latestScheduleTime } from '../../contracts/common.js';
import { createDraftBody, type CreateDraftInput, type Draft } from '../../contracts/drafts.js';
import type { DraftFile, RowError } from '../../contracts/draft-files.js';
import { HeraldError, type ErrorDetail } from '../../core/errors.js';
import type { Transactions } from '../../db/repos/transactions.js';
import type { AccountsService } from '../accounts/accounts.service.js';
import type { Deps } from '../deps.js';
import { isValidTimeZone } from '../../../time/index.js';
import { NETWORK_LABELS, type Platform } from '../../../text/networks.js';
import {
  draftToFile,
  fileToInput,
  fromCsv,
  fromJson,
  fromMarkdown,
  networkNamed,
  toJson,
  toMarkdown,
} from './draft-files.js';
import type { DraftsService } from './drafts.service.js';
import type { ScheduleService } from '../scheduling/schedule.service.js';

type Planned = Exclude<ReturnType<ScheduleService['prepare']>, { dryRun: true }>;

/** Whether and how an import schedules the drafts that carry a time. */
export interface ImportScheduling {
  schedule: boolean;
  applyJitter: boolean;
}

/** Thrown inside a transaction to roll it back on purpose (dry runs, a wrong row). */
class Rollback extends Error {}

const CSV_COLUMN_OF: [RegExp, string][] = [
  [/selectedAccountIds|networks/, 'networks'],
  [/media/, 'media'],
  [/scheduledFor/, 'scheduledFor'],
  [/language/, 'language'],
  [/tweets|title/, 'text'],
  // A post too long for a network it is scheduled to (publishing/limits.ts names the target).
  [/^targets\./, 'text'],
];

export class DraftFilesService {
  constructor(
    private readonly deps: Deps,
    private readonly drafts: DraftsService,
    private readonly accounts: AccountsService,
    private readonly tx: Transactions,
    private readonly scheduling: ScheduleService,
    private readonly metrics?: Pick<MetricsRepo, 'posts'>,
  ) {}

  /** Checks that the draft can be scheduled at its time (inside the caller's transaction). */
  private plan(
    userId: string,
    draftId: string,
    scheduledFor: string | null | undefined,
    how: ImportScheduling,
  ): Planned | null {
    if (!how.schedule || !scheduledFor) return null;
    const plan = this.scheduling.prepare(userId, { draftId, scheduledFor, applyJitter: how.applyJitter });
    return 'dryRun' in plan ? null : plan;
  }

  /** Writes the planned schedules once the drafts are committed; answers each draft's entries. */
  private async writeAll(userId: string, plans: (Planned | null)[]): Promise<string[][]> {
    return Promise.all(plans.map(async (p) => (p ? (await this.scheduling.write(userId, p)).queueIds : [])));
  }

  export(userId: string, id: string, format: 'md' | 'json', timeZone?: string): string {
    const draft = this.drafts.get(userId, id);
    const platforms = this.drafts.platforms(userId, id).map((p) => ({ platform: p.platform, content: p.content }));
    if (timeZone !== undefined && !isValidTimeZone(timeZone)) {
      throw new HeraldError('INVALID_INPUT', `"${timeZone}" is not an IANA time zone`, {
        details: [{ path: 'query.timeZone', message: 'not an IANA time zone (like Europe/Paris)' }],
      });
    }
    const published = this.metrics?.posts(userId, { draftId: id, limit: 1000 }) ?? [];
    const file = withMetrics(draftToFile(draft, platforms, { timeZone, html: format === 'json' }), published);
    return format === 'md' ? toMarkdown(file) : toJson(file);
  }

  /** Markdown (one draft) or JSON (one or many); all or nothing. A dry run creates nothing and answers `parsed`. */
  async import(
    userId: string,
    source: string,
    type: 'markdown' | 'json',
    dryRun: boolean,
    how: ImportScheduling = { schedule: false, applyJitter: false },
  ) {
    const files = type === 'markdown' ? [fromMarkdown(source)] : fromJson(source);
    const where = (i: number) => (files.length === 1 ? 'body' : `body.drafts.${i}`);
    let ids: string[] = [];
    let plans: (Planned | null)[] = [];
    try {
      this.tx.run(() => {
        const accounts = this.accounts.list(userId);
        // A dry run reads files for the CLI before it uploads the media they name by path, so
        // those entries are left out of its check (a real import refuses them).
        ids = files.map((f, i) =>
          this.insert(
            userId,
            dryRun ? { ...f, media: f.media?.filter((m) => m.id !== undefined) } : f,
            accounts,
            where(i),
          ),
        );
        plans = ids.map((id) => this.plan(userId, id, this.drafts.get(userId, id).scheduledFor, how));
        if (dryRun) throw new Rollback();
      });
    } catch (err) {
      if (!(err instanceof Rollback)) throw err;
      ids = [];
      plans = [];
    }
    const queueIds = await this.writeAll(userId, plans);
    const scheduled = ids.flatMap((draftId, i) => (plans[i] ? [{ draftId, queueIds: queueIds[i] }] : []));
    return { drafts: ids.map((id) => this.drafts.get(userId, id)), parsed: files, scheduled };
  }

  /**
   * One draft per row. A wrong row is named with its column; with any wrong row nothing is
   * created unless `partial`. A dry run checks every row as a real import would (accounts,
   * media, time) and creates nothing.
   */
  async importCsv(userId: string, source: string, opts: { dryRun: boolean; partial: boolean } & ImportScheduling) {
    const { rows, errors } = fromCsv(source);
    const now = this.deps.clock.now();
    const latest = latestScheduleTime(now);
    const created: { row: number; id: string | null; scheduledFor: string | null; plan: Planned | null }[] = [];
    try {
      this.tx.run(() => {
        const accounts = this.accounts.list(userId);
        for (const { row, file } of rows) {
          try {
            // A savepoint per row: a row that fails leaves nothing behind.
            const made = this.tx.run(() => {
              const input = this.input(userId, file, accounts, 'row');
              const at = input.scheduledFor ? Date.parse(input.scheduledFor) : undefined;
              if (at !== undefined && at <= now) throw rowError('scheduledFor', `${file.scheduledFor} is in the past`);
              if (at !== undefined && at > latest)
                throw rowError('scheduledFor', `${file.scheduledFor} is more than two years ahead`);
              const id = this.drafts.insertWithin(userId, input);
              return {
                id,
                scheduledFor: input.scheduledFor ?? null,
                plan: this.plan(userId, id, input.scheduledFor, opts),
              };
            });
            created.push({ row, ...made });
          } catch (err) {
            if (
              !(err instanceof HeraldError) ||
              !['INVALID_INPUT', 'NOT_FOUND', 'NO_SOCIAL_SET', 'SPEND_CAP_REACHED'].includes(err.code)
            )
              throw err;
            errors.push(...toRowErrors(row, err));
          }
        }
        if (opts.dryRun || (errors.length > 0 && !opts.partial)) throw new Rollback();
      });
    } catch (err) {
      if (!(err instanceof Rollback)) throw err;
    }
    errors.sort((a, b) => a.row - b.row);
    // What is (or, in a dry run, would be) imported: nothing when a row is wrong, unless partial.
    const kept = errors.length > 0 && !opts.partial ? [] : created;
    const queueIds = opts.dryRun
      ? kept.map(() => [])
      : await this.writeAll(
          userId,
          kept.map((c) => c.plan),
        );
    const drafts = kept.map(({ plan: _plan, ...c }, i) => ({
      ...c,
      id: opts.dryRun ? null : c.id,
      queueIds: queueIds[i],
    }));
    return { dryRun: opts.dryRun, imported: drafts.length, drafts, errors };
  }

  private insert(userId: string, file: DraftFile, accounts: Account[], where: string): string {
    return this.drafts.insertWithin(userId, this.input(userId, file, accounts, where), file.platforms ?? {});
  }

  /** The create body a file stands for, checked by the same contract as POST /microblog/drafts. */
  private input(_userId: string, file: DraftFile, accounts: Account[], where: string): CreateDraftInput {
    const base = fileToInput(file, where);
    const selectedAccountIds = resolveNetworks(file.networks ?? [], accounts, `${where}.networks`);
    const parsed = createDraftBody.safeParse({ ...base, selectedAccountIds });
    if (!parsed.success) {
      const details = parsed.error.issues.map((i) => ({
        path: [where, ...i.path.map(String)].join('.'),
        message: i.message,
      }));
      throw new HeraldError(
        'INVALID_INPUT',
        `Invalid draft: ${details.map((d) => `${d.path} ${d.message}`).join('; ')}`.slice(0, 500),
        { details },
      );
    }
    return parsed.data;
  }
}

/**
 * A network's name (X, Bluesky, mastodon, the API's fedblog...) becomes every account of that
 * network; otherwise an account id, or an account's @username when only one account has it.
 */
function resolveNetworks(networks: string[], accounts: Account[], path: string): string[] {
  const ids: string[] = [];
  const details: ErrorDetail[] = [];
  for (const n of networks) {
    const platform = networkNamed(n);
    const byName = accounts.filter((a) => a.username.toLowerCase() === n.replace(/^@/, '').toLowerCase());
    if (platform) {
      const of = accounts.filter((a) => a.platform === platform);
      if (of.length === 0) details.push({ path, message: `no ${NETWORK_LABELS[platform]} account is connected` });
      ids.push(...of.map((a) => a.uuid));
    } else if (accounts.some((a) => a.uuid === n)) ids.push(n);
    else if (byName.length === 1) ids.push(byName[0].uuid);
    else
      details.push({
        path,
        message:
          byName.length > 1
            ? `${n} is the name of ${byName.length} accounts (on ${labels(byName)}): give the account id`
            : `no account ${n} (give a network: X, Bluesky, Mastodon, Threads, LinkedIn; an account's @name or id)`,
      });
  }
  if (details.length > 0) throw new HeraldError('INVALID_INPUT', details.map((d) => d.message).join('; '), { details });
  return [...new Set(ids)];
}

const labels = (list: Account[]) => list.map((a) => NETWORK_LABELS[a.platform as Platform]).join(', ');

const rowError = (column: string, message: string) =>
  new HeraldError('INVALID_INPUT', message, { details: [{ path: column, message }] });

function toRowErrors(row: number, err: HeraldError): RowError[] {
  const details = err.details && err.details.length > 0 ? err.details : [{ path: '', message: err.message }];
  return details.map((d) => ({
    row,
    column: CSV_COLUMN_OF.find(([re]) => re.test(d.path))?.[1] ?? 'row',
    message: d.message,
  }));
}
