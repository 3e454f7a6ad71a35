/**
 * The write side of drafts: creating (one, a batch, or many inside the file importer's
 * transaction), updating and deleting, with the checks every write makes (the social set, the
 * accounts, media and template named must be the caller's). Writes that touch several rows run in
 * one transaction; a draft being published is read-only.
 */
import type { Platform } from '../../../text/index.js';
import type { CreateDraftInput, Draft, UpdateDraftInput } from '../../contracts/drafts.js';
import { nowIso } from '../../core/clock.js';
import { type Deps } from '../deps.js';
import type { AccountsRepo } from '../../db/repos/accounts.repo.js';
import type { DraftRow, DraftsRepo } from '../../db/repos/drafts.repo.js';
import type { SocialSetsRepo } from '../../db/repos/social-sets.repo.js';
import type { HandOffRepo } from '../../db/repos/hand-off.repo.js';
import type { Transactions } from '../../db/repos/transactions.js';
import { HeraldError, type ErrorDetail } from '../../core/errors.js';
import type { TemplatesService } from '../templates/templates.service.js';
import { languageIn, linkCardIn, optionsIn } from './draft-fields.js';
import { prepareTweets, type PreparedTweet } from './draft-text.js';
import type { DraftReader } from './draft-reader.js';
import type { EvergreenRepo } from '../../db/repos/evergreen.repo.js';
import { writeEvergreen } from './draft-evergreen.js';

/** The repositories drafts read and write. */
export interface DraftsRepos {
  drafts: DraftsRepo;
  socialSets: SocialSetsRepo;
  accounts: AccountsRepo;
  tx: Transactions;
  handOff?: HandOffRepo;
  evergreen?: EvergreenRepo;
}

/** The refusal of any change to a draft the publishing engine holds. */
export const locked = () =>
  new HeraldError(
    'INVALID_INPUT',
    'This draft is being published right now; it cannot be changed or deleted until publishing finishes',
    {
      details: [{ path: 'status', message: 'publishing' }],
    },
  );

/** Creates, updates and deletes drafts for DraftsService. */
export class DraftWriter {
  private readonly repo: DraftsRepo;

  constructor(
    private readonly deps: Deps,
    private readonly templates: TemplatesService,
    private readonly repos: DraftsRepos,
    private readonly reader: DraftReader,
  ) {
    this.repo = repos.drafts;
  }

  private resolveSet(userId: string, socialSetId: string | undefined): string {
    if (!this.repos.socialSets.hasAny(userId))
      throw new HeraldError(
        'NO_SOCIAL_SET',
        'You have no social set yet: connect an account first (it creates the Default set), or create a set',
      );
    if (socialSetId) {
      const row = this.repos.socialSets.own(userId, socialSetId);
      if (!row) throw new HeraldError('NOT_FOUND', 'Social set not found');
      return row.id;
    }
    const def = this.repos.socialSets.defaultOf(userId);
    if (!def)
      throw new HeraldError(
        'NO_SOCIAL_SET',
        'You have no default social set: pass socialSetId or mark a set as default',
      );
    return def.id;
  }

  /**
   * The given account ids without repeats, once each is known to be the caller's (INVALID_INPUT at `path` otherwise).
   */
  checkAccounts(userId: string, ids: string[], path: string): string[] {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return unique;
    const owned = new Set(this.repos.accounts.ownIds(userId, unique));
    const missing = unique.filter((id) => !owned.has(id));
    if (missing.length > 0) {
      throw new HeraldError('INVALID_INPUT', `Unknown account ids: ${missing.join(', ')}`, {
        details: missing.map((id) => ({ path, message: `no account ${id}` })),
      });
    }
    return unique;
  }

  private checkMedia(userId: string, list: PreparedTweet[], path: string): void {
    const ids = list.flatMap((t) => t.media.map((m) => m.mediaId));
    if (ids.length === 0) return;
    const known = this.reader.mediaKinds(userId, ids);
    const details: ErrorDetail[] = [];
    list.forEach((t, i) =>
      t.media.forEach((m, j) => {
        if (!known.has(m.mediaId))
          details.push({ path: `${path}.${i}.media.${j}.mediaId`, message: `no media ${m.mediaId}` });
      }),
    );
    if (details.length > 0) throw new HeraldError('INVALID_INPUT', 'Unknown media ids: upload them first', { details });
  }

  private template(userId: string, templateId: string | null | undefined) {
    if (!templateId) return undefined;
    try {
      const t = this.templates.row(userId, templateId);
      return {
        id: t.id,
        parts: { headHtml: t.headHtml, headPlain: t.headPlain, tailHtml: t.tailHtml, tailPlain: t.tailPlain },
      };
    } catch (err) {
      if (err instanceof HeraldError && err.code === 'NOT_FOUND') {
        throw new HeraldError('INVALID_INPUT', 'Unknown templateId', {
          details: [{ path: 'templateId', message: `no template ${templateId}` }],
        });
      }
      throw err;
    }
  }

  private writeTweets(draftId: string, list: PreparedTweet[]): void {
    this.repo.replaceTweets(
      draftId,
      list.map((t) => ({
        id: this.deps.ids.uuid(),
        position: t.position,
        content: t.content,
        plainText: t.plainText,
        media: JSON.stringify(t.media),
      })),
    );
  }

  private insert(userId: string, input: CreateDraftInput, fallbackSetId: string | undefined, path: string): string {
    const socialSetId = this.resolveSet(userId, input.socialSetId ?? fallbackSetId);
    const selected = this.checkAccounts(userId, input.selectedAccountIds ?? [], `${path}selectedAccountIds`);
    const template = this.template(userId, input.templateId);
    const list = prepareTweets(input.tweets, input.templateInText ? undefined : template?.parts);
    this.checkMedia(userId, list, `${path}tweets`);
    const now = nowIso(this.deps.clock);
    const id = this.deps.ids.uuid();
    this.repo.insert({
      id,
      userId,
      title: input.title,
      status: 'draft',
      scheduledFor: input.scheduledFor ? new Date(input.scheduledFor).toISOString() : null,
      socialSetId,
      selectedAccountIds: JSON.stringify(selected),
      templateId: template?.id ?? null,
      createdAt: now,
      updatedAt: now,
      language: languageIn(input.language, `${path}language`),
      linkCard: linkCardIn(input.linkCard),
      options: optionsIn(input.options),
    });
    this.writeTweets(id, list);
    if (input.platforms) this.writePlatforms(id, input.platforms, now);
    if (input.evergreen && this.repos.evergreen) writeEvergreen(this.repos.evergreen, userId, id, input.evergreen, now);
    return id;
  }

  /** Upsert per network: a row is updated in place (same id), created if new, removed when empty. */
  writePlatforms(draftId: string, list: { platform: Platform; content: string }[], now: string): void {
    for (const { platform, content } of list) {
      if (content.trim() === '') this.repo.deletePlatform(draftId, platform);
      else this.repo.putPlatform(draftId, platform, content, now);
    }
  }

  /** Creates one draft in its own transaction and answers it. */
  create(userId: string, input: CreateDraftInput): Draft {
    const id = this.repos.tx.run(() => this.insert(userId, input, undefined, ''));
    return this.reader.get(userId, id);
  }

  /**
   * Inserts one draft with its per-network text inside the caller's transaction and answers its
   * id (the file importer: many drafts, one transaction, no answer built for each).
   */
  insertWithin(userId: string, input: CreateDraftInput, platforms: Partial<Record<Platform, string>> = {}): string {
    const list = Object.entries(platforms).map(([platform, content]) => ({ platform: platform as Platform, content }));
    return this.insert(userId, { ...input, platforms: list }, undefined, '');
  }

  /** All or nothing: one transaction; the first failing draft rolls every one back. */
  createBatch(userId: string, input: { drafts: CreateDraftInput[]; socialSetId?: string }): Draft[] {
    const ids = this.repos.tx.run(() =>
      input.drafts.map((d, i) => {
        try {
          return this.insert(userId, d, input.socialSetId, `drafts.${i}.`);
        } catch (err) {
          if (err instanceof HeraldError && err.code === 'INVALID_INPUT') {
            throw new HeraldError('INVALID_INPUT', `Draft ${i}: ${err.message}; no draft was created`, {
              details: err.details,
            });
          }
          throw err;
        }
      }),
    );
    const rows = ids.map((id) => this.reader.row(userId, id));
    return this.reader.toDtos(userId, rows);
  }

  /** Changes the given fields in one transaction; a scheduled draft moves only through the schedule. */
  update(userId: string, id: string, input: UpdateDraftInput): Draft {
    this.repos.tx.run(() => {
      const row = this.reader.row(userId, id);
      if (row.status === 'publishing') throw locked();
      const next: DraftRow = { ...row, updatedAt: nowIso(this.deps.clock) };
      if (input.title !== undefined) next.title = input.title;
      if (input.status !== undefined && input.status !== row.status) {
        if (row.status === 'scheduled') {
          throw new HeraldError(
            'INVALID_INPUT',
            'This draft is scheduled: cancel its schedule (DELETE /microblog/schedule) to make it a draft again',
            { details: [{ path: 'status', message: 'scheduled' }] },
          );
        }
        next.status = input.status;
      }
      if (input.scheduledFor !== undefined) {
        const when = input.scheduledFor === null ? null : new Date(input.scheduledFor).toISOString();
        if (row.status === 'scheduled' && when !== row.scheduledFor) {
          throw new HeraldError('INVALID_INPUT', 'This draft is scheduled: move it with POST /microblog/schedule', {
            details: [{ path: 'scheduledFor', message: 'scheduled' }],
          });
        }
        next.scheduledFor = when;
      }
      if (input.socialSetId !== undefined) next.socialSetId = this.resolveSet(userId, input.socialSetId);
      if (input.selectedAccountIds !== undefined)
        next.selectedAccountIds = JSON.stringify(
          this.checkAccounts(userId, input.selectedAccountIds, 'selectedAccountIds'),
        );
      const template = input.templateId !== undefined ? this.template(userId, input.templateId) : undefined;
      if (input.templateId !== undefined) next.templateId = template?.id ?? null;
      if (input.language !== undefined) next.language = languageIn(input.language);
      if (input.linkCard !== undefined) next.linkCard = linkCardIn(input.linkCard);
      if (input.options !== undefined) next.options = optionsIn(input.options);
      if (input.tweets !== undefined) {
        // A template given with new posts frames them, as at creation (unless they hold it already).
        const list = prepareTweets(input.tweets, input.templateInText ? undefined : template?.parts);
        this.checkMedia(userId, list, 'tweets');
        this.writeTweets(row.id, list);
      }
      if (input.platforms) this.writePlatforms(row.id, input.platforms, next.updatedAt);
      if (input.evergreen && this.repos.evergreen)
        writeEvergreen(this.repos.evergreen, userId, row.id, input.evergreen, next.updatedAt);
      this.repo.update(next);
      this.repos.handOff?.draftEdited(next.id, nowIso(this.deps.clock)); // a post handed to a network has the old text
    });
    return this.reader.get(userId, id);
  }

  /** Deletes a draft with everything that hangs on it. */
  delete(userId: string, id: string): void {
    this.repos.tx.run(() => {
      const row = this.reader.row(userId, id);
      if (row.status === 'publishing') throw locked();
      // Tweets, platform content and pending schedule entries go with it (foreign keys); posts
      // handed to a network are withdrawn there (scheduling/hand-off.service.ts).
      this.repos.handOff?.withdrawDraft(row.id, nowIso(this.deps.clock));
      // Its evergreen repeats' `skipped` rows record no post: they go with it, not left as direct posts.
      this.repos.evergreen?.dropDraftSkips(row.id);
      this.repo.delete(row.id);
    });
  }
}
