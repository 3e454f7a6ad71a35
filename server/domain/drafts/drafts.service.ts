/**
 * Drafts: an ordered list of posts (tweets) with optional per-network text (docs/decisions.md §4).
 * Every query is scoped by user: another user's draft is NOT_FOUND. Writes that touch several
 * rows run in one transaction; a draft being published is read-only.
 */
import {
  checkNetworkPosts, countOptionsFromMeta, postsForNetwork, splitForPlatform, splitThreadText, type MediaKind, type Platform,
} from '../../../text/index.js';
import type { CreateDraftInput, Draft, Tweet, UpdateDraftInput } from '../../contracts/drafts.js';
import { nowIso } from '../../core/clock.js';
import { type Deps } from '../deps.js';
import type { ChangeToken } from '../../db/change-token.js';
import type { AccountsRepo } from '../../db/repos/accounts.repo.js';
import type { AccountRow, DraftRow, DraftsRepo, PlatformRow, TweetRow } from '../../db/repos/drafts.repo.js';
import type { SocialSetsRepo } from '../../db/repos/social-sets.repo.js';
import type { HandOffRepo } from '../../db/repos/hand-off.repo.js';
import type { Transactions } from '../../db/repos/transactions.js';
import { HeraldError, type ErrorDetail } from '../../core/errors.js';
import type { TemplatesService } from '../templates/templates.service.js';
import { decodeCursor, encodeCursor, languageIn, linkCardIn, linkCardOut, parseJson } from './draft-fields.js';
import { checkTweetCached, prepareTweets, rulesFor, rulesKey, verdictFor, type MediaRef, type PreparedTweet, type TargetRules } from './draft-text.js';

export interface ListQuery {
  socialSetId?: string;
  status?: Draft['status'];
  limit?: number;
  cursor?: string;
}

const locked = () => new HeraldError('INVALID_INPUT', 'This draft is being published right now; it cannot be changed or deleted until publishing finishes', {
  details: [{ path: 'status', message: 'publishing' }],
});

type ListResult = { drafts: Omit<Draft, 'selectedAccountIds' | 'templateId'>[]; nextCursor: string | null };

// The list is the most read answer (the UI's drafts page, clients polling) and a pure function of
// the database, so recent answers are kept while the database stays unchanged (changeToken: any
// write here, any commit elsewhere). Only small ones are kept (a page, a modest library), and few:
// at most 16 answers of up to 500 drafts, with their JSON, some MB in all.
const LIST_CACHE_ENTRIES = 16;
const LIST_CACHE_MAX_DRAFTS = 500;

export class DraftsService {
  private readonly repo: DraftsRepo;
  private readonly changed: ChangeToken;
  private readonly listCache = new Map<string, { token: string; value: ListResult }>();

  constructor(
    private readonly deps: Deps,
    private readonly templates: TemplatesService,
    private readonly repos: { drafts: DraftsRepo; socialSets: SocialSetsRepo; accounts: AccountsRepo; tx: Transactions; handOff?: HandOffRepo },
  ) {
    this.repo = repos.drafts;
    this.changed = repos.tx.changeToken();
  }

  // ---- reading -------------------------------------------------------------------------------

  row(userId: string, id: string): DraftRow {
    const row = this.repo.draft(userId, id);
    if (!row) throw new HeraldError('NOT_FOUND', 'Draft not found');
    return row;
  }

  get(userId: string, id: string): Draft {
    return this.toDtos(userId, [this.row(userId, id)])[0];
  }

  /**
   * Newest first. The answer is kept, and the same object returned, while the database is
   * unchanged (the HTTP layer keeps its encoded body beside it): do not mutate it.
   */
  list(userId: string, q: ListQuery): ListResult {
    return this.listEntry(userId, q).value;
  }

  private listEntry(userId: string, q: ListQuery): { token: string; value: ListResult } {
    const token = this.changed();
    const key = [userId, q.socialSetId ?? '', q.status ?? '', q.limit ?? '', q.cursor ?? ''].join('\u0000');
    const hit = this.listCache.get(key);
    if (hit && hit.token === token) return hit;
    const entry = { token, value: this.listFresh(userId, q) };
    this.listCache.delete(key);
    if (entry.value.drafts.length <= LIST_CACHE_MAX_DRAFTS) {
      if (this.listCache.size >= LIST_CACHE_ENTRIES) this.listCache.delete(this.listCache.keys().next().value!);
      this.listCache.set(key, entry);
    }
    return entry;
  }

  private listFresh(userId: string, q: ListQuery): ListResult {
    const after = q.cursor ? decodeCursor(q.cursor) : undefined;
    const rows = this.repo.list(userId, { socialSetId: q.socialSetId, status: q.status, after, limit: q.limit ? q.limit + 1 : undefined });
    const more = q.limit !== undefined && rows.length > q.limit;
    const page = more ? rows.slice(0, q.limit) : rows;
    const list = this.toDtos(userId, page).map(({ selectedAccountIds: _s, templateId: _t, ...item }) => item);
    return { drafts: list, nextCursor: more ? encodeCursor(page[page.length - 1]) : null };
  }

  /** Target accounts of each draft: its selected accounts, else its social set's accounts. */
  private targetsOf(userId: string, rows: DraftRow[]): Map<string, AccountRow[]> {
    const owned = new Map(this.repo.accountsOf(userId).map((a) => [a.id, a]));
    const setIds = [...new Set(rows.map((r) => r.socialSetId).filter((s): s is string => s !== null))];
    const members = new Map<string, AccountRow[]>();
    for (const l of setIds.length > 0 ? this.repo.membersOf(setIds) : []) {
      const a = owned.get(l.accountId);
      if (a) members.set(l.socialSetId, [...(members.get(l.socialSetId) ?? []), a]);
    }
    const out = new Map<string, AccountRow[]>();
    for (const r of rows) {
      const selected = parseJson<string[]>(r.selectedAccountIds, []).map((id) => owned.get(id)).filter((a): a is AccountRow => a !== undefined);
      out.set(r.id, selected.length > 0 ? selected : (r.socialSetId ? members.get(r.socialSetId) ?? [] : []));
    }
    return out;
  }

  private mediaKinds(userId: string, ids: string[]): Map<string, MediaKind> {
    const kinds = new Map<string, MediaKind>();
    if (ids.length === 0) return kinds;
    for (const m of this.repo.mediaTypes(userId, [...new Set(ids)])) {
      kinds.set(m.id, (m.type === 'video' || m.type === 'gif' ? m.type : 'image'));
    }
    return kinds;
  }

  private toDtos(userId: string, rows: DraftRow[]): Draft[] {
    if (rows.length === 0) return [];
    const byDraft = new Map<string, TweetRow[]>();
    for (const t of this.repo.tweetsOf(rows.map((r) => r.id))) {
      const list = byDraft.get(t.draftId);
      if (list) list.push(t); else byDraft.set(t.draftId, [t]);
    }
    const refs = new Map<string, MediaRef[]>();
    for (const list of byDraft.values()) for (const t of list) refs.set(t.id, parseJson<MediaRef[]>(t.media, []));
    const kinds = this.mediaKinds(userId, [...refs.values()].flat().map((m) => m.mediaId));
    const targets = this.targetsOf(userId, rows);
    const rulesCache = new Map<string, { rules: TargetRules; key: string }>();
    return rows.map((r) => {
      const accs = targets.get(r.id) ?? [];
      const ids = accs.map((a) => a.id).join(',');
      let target = rulesCache.get(ids);
      if (!target) { const rules = rulesFor(accs); target = { rules, key: rulesKey(rules) }; rulesCache.set(ids, target); }
      const { rules, key } = target;
      const list: Tweet[] = (byDraft.get(r.id) ?? []).map((t) => {
        const mediaRefs = (refs.get(t.id) ?? []).map((m) => ({ ...m, ...(kinds.has(m.mediaId) ? { type: kinds.get(m.mediaId) } : {}) }));
        const checked = checkTweetCached(t.plainText, mediaRefs.map((m) => m.type ?? 'image'), rules, key);
        return { id: t.id, content: t.content, plainText: t.plainText, media: mediaRefs, position: t.position, ...checked };
      });
      return {
        id: r.id, title: r.title, status: r.status as Draft['status'], scheduledFor: r.scheduledFor, socialSetId: r.socialSetId,
        selectedAccountIds: parseJson<string[]>(r.selectedAccountIds, []), templateId: r.templateId, tweets: list, createdAt: r.createdAt, updatedAt: r.updatedAt,
        language: r.language, linkCard: linkCardOut(r.linkCard),
      };
    });
  }

  // ---- writing -------------------------------------------------------------------------------

  private resolveSet(userId: string, socialSetId: string | undefined): string {
    if (!this.repos.socialSets.hasAny(userId)) throw new HeraldError('NO_SOCIAL_SET', 'You have no social set yet: connect an account first (it creates the Default set), or create a set');
    if (socialSetId) {
      const row = this.repos.socialSets.own(userId, socialSetId);
      if (!row) throw new HeraldError('NOT_FOUND', 'Social set not found');
      return row.id;
    }
    const def = this.repos.socialSets.defaultOf(userId);
    if (!def) throw new HeraldError('NO_SOCIAL_SET', 'You have no default social set: pass socialSetId or mark a set as default');
    return def.id;
  }

  private checkAccounts(userId: string, ids: string[], path: string): string[] {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return unique;
    const owned = new Set(this.repos.accounts.ownIds(userId, unique));
    const missing = unique.filter((id) => !owned.has(id));
    if (missing.length > 0) {
      throw new HeraldError('INVALID_INPUT', `Unknown account ids: ${missing.join(', ')}`, { details: missing.map((id) => ({ path, message: `no account ${id}` })) });
    }
    return unique;
  }

  private checkMedia(userId: string, list: PreparedTweet[], path: string): void {
    const ids = list.flatMap((t) => t.media.map((m) => m.mediaId));
    if (ids.length === 0) return;
    const known = this.mediaKinds(userId, ids);
    const details: ErrorDetail[] = [];
    list.forEach((t, i) => t.media.forEach((m, j) => { if (!known.has(m.mediaId)) details.push({ path: `${path}.${i}.media.${j}.mediaId`, message: `no media ${m.mediaId}` }); }));
    if (details.length > 0) throw new HeraldError('INVALID_INPUT', 'Unknown media ids: upload them first', { details });
  }

  private template(userId: string, templateId: string | null | undefined) {
    if (!templateId) return undefined;
    try {
      const t = this.templates.row(userId, templateId);
      return { id: t.id, parts: { headHtml: t.headHtml, headPlain: t.headPlain, tailHtml: t.tailHtml, tailPlain: t.tailPlain } };
    } catch (err) {
      if (err instanceof HeraldError && err.code === 'NOT_FOUND') {
        throw new HeraldError('INVALID_INPUT', 'Unknown templateId', { details: [{ path: 'templateId', message: `no template ${templateId}` }] });
      }
      throw err;
    }
  }

  private writeTweets(draftId: string, list: PreparedTweet[]): void {
    this.repo.replaceTweets(draftId, list.map((t) => ({
      id: this.deps.ids.uuid(), position: t.position, content: t.content, plainText: t.plainText, media: JSON.stringify(t.media),
    })));
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
      id, userId, title: input.title, status: 'draft', scheduledFor: input.scheduledFor ? new Date(input.scheduledFor).toISOString() : null,
      socialSetId, selectedAccountIds: JSON.stringify(selected), templateId: template?.id ?? null, createdAt: now, updatedAt: now,
      language: languageIn(input.language, `${path}language`), linkCard: linkCardIn(input.linkCard),
    });
    this.writeTweets(id, list);
    if (input.platforms) this.writePlatforms(id, input.platforms, now);
    return id;
  }

  /** Upsert per network: a row is updated in place (same id), created if new, removed when empty. */
  private writePlatforms(draftId: string, list: { platform: Platform; content: string }[], now: string): void {
    for (const { platform, content } of list) {
      if (content.trim() === '') this.repo.deletePlatform(draftId, platform);
      else this.repo.putPlatform(draftId, platform, content, now);
    }
  }

  create(userId: string, input: CreateDraftInput): Draft {
    const id = this.repos.tx.run(() => this.insert(userId, input, undefined, ''));
    return this.get(userId, id);
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
    const ids = this.repos.tx.run(() => input.drafts.map((d, i) => {
      try {
        return this.insert(userId, d, input.socialSetId, `drafts.${i}.`);
      } catch (err) {
        if (err instanceof HeraldError && err.code === 'INVALID_INPUT') {
          throw new HeraldError('INVALID_INPUT', `Draft ${i}: ${err.message}; no draft was created`, { details: err.details });
        }
        throw err;
      }
    }));
    const rows = ids.map((id) => this.row(userId, id));
    return this.toDtos(userId, rows);
  }

  update(userId: string, id: string, input: UpdateDraftInput): Draft {
    this.repos.tx.run(() => {
      const row = this.row(userId, id);
      if (row.status === 'publishing') throw locked();
      const next: DraftRow = { ...row, updatedAt: nowIso(this.deps.clock) };
      if (input.title !== undefined) next.title = input.title;
      if (input.status !== undefined && input.status !== row.status) {
        if (row.status === 'scheduled') {
          throw new HeraldError('INVALID_INPUT', 'This draft is scheduled: cancel its schedule (DELETE /microblog/schedule) to make it a draft again', { details: [{ path: 'status', message: 'scheduled' }] });
        }
        next.status = input.status;
      }
      if (input.scheduledFor !== undefined) {
        const when = input.scheduledFor === null ? null : new Date(input.scheduledFor).toISOString();
        if (row.status === 'scheduled' && when !== row.scheduledFor) {
          throw new HeraldError('INVALID_INPUT', 'This draft is scheduled: move it with POST /microblog/schedule', { details: [{ path: 'scheduledFor', message: 'scheduled' }] });
        }
        next.scheduledFor = when;
      }
      if (input.socialSetId !== undefined) next.socialSetId = this.resolveSet(userId, input.socialSetId);
      if (input.selectedAccountIds !== undefined) next.selectedAccountIds = JSON.stringify(this.checkAccounts(userId, input.selectedAccountIds, 'selectedAccountIds'));
      const template = input.templateId !== undefined ? this.template(userId, input.templateId) : undefined;
      if (input.templateId !== undefined) next.templateId = template?.id ?? null;
      if (input.language !== undefined) next.language = languageIn(input.language);
      if (input.linkCard !== undefined) next.linkCard = linkCardIn(input.linkCard);
      if (input.tweets !== undefined) {
        // A template given with new posts frames them, as at creation (unless they hold it already).
        const list = prepareTweets(input.tweets, input.templateInText ? undefined : template?.parts);
        this.checkMedia(userId, list, 'tweets');
        this.writeTweets(row.id, list);
      }
      if (input.platforms) this.writePlatforms(row.id, input.platforms, next.updatedAt);
      this.repo.update(next);
      this.repos.handOff?.draftEdited(next.id, nowIso(this.deps.clock)); // a post handed to a network has the old text
    });
    return this.get(userId, id);
  }

  delete(userId: string, id: string): void {
    this.repos.tx.run(() => {
      const row = this.row(userId, id);
      if (row.status === 'publishing') throw locked();
      // Tweets, platform content and pending schedule entries go with it (foreign keys); posts
      // handed to a network are withdrawn there (scheduling/hand-off.service.ts).
      this.repos.handOff?.withdrawDraft(row.id, nowIso(this.deps.clock));
      this.repo.delete(row.id);
    });
  }

  // ---- per-network text ------------------------------------------------------------------------

  private platformDtos(userId: string, row: DraftRow, list: PlatformRow[]) {
    const rules = rulesFor(this.targetsOf(userId, [row]).get(row.id) ?? []);
    return list.map((p) => {
      const platform = p.platform as Platform;
      return {
        id: p.id, draft_uuid: p.draftId, platform, content: p.content, created_at: p.createdAt, updated_at: p.updatedAt,
        posts: splitThreadText(p.content).map((text) => ({ text, ...verdictFor(platform, text, [], rules.get(platform)) })),
      };
    });
  }

  private platformRows(draftId: string): PlatformRow[] {
    return this.repo.platforms(draftId);
  }

  platforms(userId: string, id: string) {
    const row = this.row(userId, id);
    return this.platformDtos(userId, row, this.platformRows(row.id));
  }

  putPlatforms(userId: string, id: string, input: { platforms: { platform: Platform; content: string }[] }) {
    return this.repos.tx.run(() => {
      const row = this.row(userId, id);
      if (row.status === 'publishing') throw locked();
      const now = nowIso(this.deps.clock);
      this.writePlatforms(row.id, input.platforms, now);
      this.repo.touch(row.id, now);
      this.repos.handOff?.draftEdited(row.id, now); // a post handed to a network has the old text
      return this.platformDtos(userId, row, this.platformRows(row.id));
    });
  }

  /**
   * What each target account's network receives for this draft (its override, else the posts'
   * plain text; LinkedIn joined into one post) and whether it fits, counted with the account's
   * own rules. Targets: the given accounts, else the draft's selected accounts, else its social
   * set's accounts. The publishing engine and the composer's previews read this.
   */
  forNetworks(userId: string, id: string, accountIds?: string[]) {
    const row = this.row(userId, id);
    let targets: AccountRow[];
    if (accountIds && accountIds.length > 0) {
      const ids = this.checkAccounts(userId, accountIds, 'accountIds');
      const rows = this.repos.accounts.ownMany(userId, ids);
      targets = ids.map((a) => rows.find((r) => r.id === a)!);
    } else {
      targets = this.targetsOf(userId, [row]).get(row.id) ?? [];
    }
    const list = this.repo.tweetsOf([row.id]).map((t) => ({ plainText: t.plainText, media: parseJson<MediaRef[]>(t.media, []) }));
    const kinds = this.mediaKinds(userId, list.flatMap((t) => t.media.map((m) => m.mediaId)));
    const overrides = new Map(this.platformRows(row.id).map((p) => [p.platform, p.content]));
    return targets.map((account) => {
      const platform = account.platform as Platform;
      const posts = postsForNetwork(platform, list, overrides.get(platform));
      const checked = checkNetworkPosts(platform, posts.map((p) => ({ text: p.text, media: p.media.map((m) => kinds.get(m.mediaId) ?? 'image') })), countOptionsFromMeta(platform, parseJson<Record<string, unknown>>(account.meta, {})));
      return {
        accountId: account.id, platform, username: account.username, valid: checked.valid,
        posts: posts.map((p, i) => ({ text: p.text, media: p.media, ...checked.posts[i] })),
      };
    });
  }

  /** Splits text into posts that fit one network, counted with an account's rules when given. */
  split(userId: string, input: { text: string; platform: Platform; accountId?: string }) {
    let options: TargetRules = rulesFor([]);
    if (input.accountId) {
      const account = this.repos.accounts.own(userId, input.accountId);
      if (!account) throw new HeraldError('NOT_FOUND', 'Account not found');
      if (account.platform !== input.platform) {
        throw new HeraldError('INVALID_INPUT', `Account ${account.id} is a ${account.platform} account, not ${input.platform}`, { details: [{ path: 'accountId', message: 'platform does not match the account' }] });
      }
      options = rulesFor([account]);
    }
    const opts = options.get(input.platform)?.[0] ?? {};
    return splitForPlatform(input.text, input.platform, opts).map((text) => ({ text, ...verdictFor(input.platform, text, [], [opts]) }));
  }
}
