/**
 * The read side of drafts: rows to the answers the API gives, each post checked against its
 * draft's target accounts, and the kept list answers. Every query is scoped by user: another
 * user's draft is NOT_FOUND.
 */
import type { MediaKind } from '../../../text/index.js';
import type { Draft, Tweet } from '../../contracts/drafts.js';
import type { ChangeToken } from '../../db/change-token.js';
import type { AccountRow, DraftRow, DraftsRepo, TweetRow } from '../../db/repos/drafts.repo.js';
import { HeraldError } from '../../core/errors.js';
import { decodeCursor, encodeCursor, linkCardOut, optionsOut, parseJson } from './draft-fields.js';
import { checkTweetCached, rulesFor, rulesKey, type MediaRef, type TargetRules } from './draft-text.js';
import type { EvergreenRepo } from '../../db/repos/evergreen.repo.js';
import { evergreenByDraft, NOT_EVERGREEN } from './draft-evergreen.js';

/** Filters and paging of the drafts list. */
export interface ListQuery {
  socialSetId?: string;
  status?: Draft['status'];
  limit?: number;
  cursor?: string;
}

/** One page of the drafts list: list items leave out what only the full draft carries. */
export type ListResult = { drafts: Omit<Draft, 'selectedAccountIds' | 'templateId'>[]; nextCursor: string | null };

// The list is the most read answer (the UI's drafts page, clients polling) and a pure function of
// the database, so recent answers are kept while the database stays unchanged (changeToken: any
// write here, any commit elsewhere). Only small ones are kept (a page, a modest library), and few:
// at most 16 answers of up to 500 drafts, with their JSON, some MB in all.
const LIST_CACHE_ENTRIES = 16;
const LIST_CACHE_MAX_DRAFTS = 500;

/** Reads drafts for DraftsService and its writing and per-network parts. */
export class DraftReader {
  private readonly listCache = new Map<string, { token: string; value: ListResult }>();

  constructor(
    private readonly repo: DraftsRepo,
    private readonly changed: ChangeToken,
    private readonly evergreen?: EvergreenRepo,
  ) {}

  /** The caller's draft row; NOT_FOUND for a draft that is missing or another user's. */
  row(userId: string, id: string): DraftRow {
    const row = this.repo.draft(userId, id);
    if (!row) throw new HeraldError('NOT_FOUND', 'Draft not found');
    return row;
  }

  /** One draft as the API answers it. */
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
    const rows = this.repo.list(userId, {
      socialSetId: q.socialSetId,
      status: q.status,
      after,
      limit: q.limit ? q.limit + 1 : undefined,
    });
    const more = q.limit !== undefined && rows.length > q.limit;
    const page = more ? rows.slice(0, q.limit) : rows;
    const list = this.toDtos(userId, page).map(({ selectedAccountIds: _s, templateId: _t, ...item }) => item);
    return { drafts: list, nextCursor: more ? encodeCursor(page[page.length - 1]) : null };
  }

  /** Target accounts of each draft: its selected accounts, else its social set's accounts. */
  targetsOf(userId: string, rows: DraftRow[]): Map<string, AccountRow[]> {
    const owned = new Map(this.repo.accountsOf(userId).map((a) => [a.id, a]));
    const setIds = [...new Set(rows.map((r) => r.socialSetId).filter((s): s is string => s !== null))];
    const members = new Map<string, AccountRow[]>();
    for (const l of setIds.length > 0 ? this.repo.membersOf(setIds) : []) {
      const a = owned.get(l.accountId);
      if (a) members.set(l.socialSetId, [...(members.get(l.socialSetId) ?? []), a]);
    }
    const out = new Map<string, AccountRow[]>();
    for (const r of rows) {
      const selected = parseJson<string[]>(r.selectedAccountIds, [])
        .map((id) => owned.get(id))
        .filter((a): a is AccountRow => a !== undefined);
      out.set(r.id, selected.length > 0 ? selected : r.socialSetId ? (members.get(r.socialSetId) ?? []) : []);
    }
    return out;
  }

  /** The kind of each of the caller's media ids; ids not theirs (or unknown) are absent. */
  mediaKinds(userId: string, ids: string[]): Map<string, MediaKind> {
    const kinds = new Map<string, MediaKind>();
    if (ids.length === 0) return kinds;
    for (const m of this.repo.mediaTypes(userId, [...new Set(ids)])) {
      kinds.set(m.id, m.type === 'video' || m.type === 'gif' || m.type === 'document' ? m.type : 'image');
    }
    return kinds;
  }

  /** The alt text kept on each of the caller's media items (a post's own alt text wins over it). */
  mediaAlts(userId: string, ids: string[]): Map<string, string> {
    if (ids.length === 0) return new Map();
    return new Map(this.repo.mediaTypes(userId, [...new Set(ids)]).map((m) => [m.id, m.altText]));
  }

  /** Draft rows as the API answers them, read with a few queries for all of them together. */
  toDtos(userId: string, rows: DraftRow[]): Draft[] {
    if (rows.length === 0) return [];
    const byDraft = new Map<string, TweetRow[]>();
    for (const t of this.repo.tweetsOf(rows.map((r) => r.id))) {
      const list = byDraft.get(t.draftId);
      if (list) list.push(t);
      else byDraft.set(t.draftId, [t]);
    }
    const refs = new Map<string, MediaRef[]>();
    for (const list of byDraft.values()) for (const t of list) refs.set(t.id, parseJson<MediaRef[]>(t.media, []));
    const kinds = this.mediaKinds(
      userId,
      [...refs.values()].flat().map((m) => m.mediaId),
    );
    const targets = this.targetsOf(userId, rows);
    const evergreen = this.evergreen ? evergreenByDraft(this.evergreen, userId) : new Map();
    const rulesCache = new Map<string, { rules: TargetRules; key: string }>();
    return rows.map((r) => {
      const accs = targets.get(r.id) ?? [];
      const ids = accs.map((a) => a.id).join(',');
      let target = rulesCache.get(ids);
      if (!target) {
        const rules = rulesFor(accs);
        target = { rules, key: rulesKey(rules) };
        rulesCache.set(ids, target);
      }
      const { rules, key } = target;
      const list: Tweet[] = (byDraft.get(r.id) ?? []).map((t, i) => {
        const mediaRefs = (refs.get(t.id) ?? []).map((m) => ({
          ...m,
          ...(kinds.has(m.mediaId) ? { type: kinds.get(m.mediaId) } : {}),
        }));
        const checked = checkTweetCached(
          t.plainText,
          mediaRefs.map((m) => m.type ?? 'image'),
          rules,
          key,
          i > 0,
        );
        return {
          id: t.id,
          content: t.content,
          plainText: t.plainText,
          media: mediaRefs,
          position: t.position,
          ...checked,
        };
      });
      return {
        id: r.id,
        title: r.title,
        status: r.status as Draft['status'],
        scheduledFor: r.scheduledFor,
        socialSetId: r.socialSetId,
        selectedAccountIds: parseJson<string[]>(r.selectedAccountIds, []),
        templateId: r.templateId,
        tweets: list,
        createdAt: r.createdAt,
        updatedAt: r.updatedAt,
        language: r.language,
        linkCard: linkCardOut(r.linkCard),
        options: optionsOut(r.options),
        evergreen: evergreen.get(r.id) ?? { ...NOT_EVERGREEN, variants: [] },
      };
    });
  }
}
