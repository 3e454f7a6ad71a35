/**
 * What each network receives for a draft: the per-network override when there is one (a line
 * holding only `---` separates posts), else the posts' plain text; LinkedIn has no threads, so
 * its posts are joined with a blank line.
 */
import { and, eq, inArray } from 'drizzle-orm';
import { splitThreadText } from '../../../text/index.js';
import type { Platform } from '../../core/config.js';
import type { Deps } from '../deps.js';
import type { Sqlite } from '../../db/connection.js';
import { media as mediaTable } from '../../db/schema.js';
import { HeraldError } from '../../core/errors.js';
import type { MediaRef } from './runner.js';

export interface PartPlan {
  text: string;
  media: MediaRef[];
}

export interface DraftForPublishing {
  id: string;
  userId: string;
  title: string;
  status: string;
  socialSetId: string | null;
  selectedAccountIds: string[];
  posts: { plainText: string; media: MediaRef[] }[];
  overrides: Partial<Record<Platform, string>>;
}

function prepareDraftQueries(sqlite: Sqlite) {
  return {
    draft: sqlite.prepare(`SELECT id, user_id AS userId, title, status, social_set_id AS socialSetId, selected_account_ids AS selectedAccountIds
      FROM drafts WHERE id = ? AND user_id = ?`),
    posts: sqlite.prepare('SELECT plain_text AS plainText, media FROM tweets WHERE draft_id = ? ORDER BY position'),
    overrides: sqlite.prepare('SELECT platform, content FROM platform_contents WHERE draft_id = ?'),
  };
}
/** Prepared once per connection: every publish (a scheduled one each time it fires) reads a draft. */
const draftQueries = new WeakMap<Sqlite, ReturnType<typeof prepareDraftQueries>>();

export function loadDraft(deps: Deps, userId: string, draftId: string): DraftForPublishing {
  let q = draftQueries.get(deps.sqlite);
  if (!q) draftQueries.set(deps.sqlite, (q = prepareDraftQueries(deps.sqlite)));
  const row = q.draft.get(draftId, userId) as { id: string; userId: string; title: string; status: string; socialSetId: string | null; selectedAccountIds: string } | undefined;
  if (!row) throw new HeraldError('NOT_FOUND', 'Draft not found');
  const stored = q.posts.all(row.id) as { plainText: string; media: string }[];
  const refs = stored.map((t) => JSON.parse(t.media) as MediaRef[]);
  const kinds = withKinds(deps, userId, refs.flat());
  const posts = stored.map((t, i) => ({ plainText: t.plainText, media: refs[i].map(kinds) }));
  const overrides: Partial<Record<Platform, string>> = {};
  for (const pc of q.overrides.all(row.id) as { platform: string; content: string }[]) {
    overrides[pc.platform as Platform] = pc.content;
  }
  return {
    id: row.id, userId: row.userId, title: row.title, status: row.status, socialSetId: row.socialSetId,
    selectedAccountIds: JSON.parse(row.selectedAccountIds) as string[], posts, overrides,
  };
}

/**
 * Adds each stored media item's type and size to its references (this user's items only); a reference to
 * an item that is gone keeps no `kind`, so the limits check refuses it before anything is sent.
 */
export function withKinds(deps: Deps, userId: string, refs: MediaRef[]): (ref: MediaRef) => MediaRef {
  const ids = [...new Set(refs.map((r) => r.mediaId).filter((id): id is string => !!id))];
  const rows = ids.length === 0 ? [] : deps.db.select({ id: mediaTable.id, type: mediaTable.type, size: mediaTable.size }).from(mediaTable)
    .where(and(eq(mediaTable.userId, userId), inArray(mediaTable.id, ids))).all();
  const found = new Map(rows.map((r) => [r.id, { kind: r.type as NonNullable<MediaRef['kind']>, size: r.size }]));
  return (ref) => {
    const { kind: _kind, size: _size, ...rest } = ref;
    const row = ref.mediaId ? found.get(ref.mediaId) : undefined;
    return row ? { ...rest, ...row } : rest;
  };
}

/** Splits override text into posts at lines holding only `---` (the shared rule, text/). */
export function splitOverride(text: string): string[] {
  return splitThreadText(text);
}

export function partsFor(platform: Platform, draft: Pick<DraftForPublishing, 'posts' | 'overrides'>): PartPlan[] {
  const override = draft.overrides[platform];
  let parts: PartPlan[];
  if (override !== undefined && override.trim() !== '') {
    // Media stays with the post at the same position.
    parts = splitOverride(override).map((text, i) => ({ text, media: draft.posts[i]?.media ?? [] }));
  } else {
    parts = draft.posts.map((p) => ({ text: p.plainText, media: p.media }));
  }
  parts = parts.filter((p) => p.text.trim() !== '' || p.media.length > 0);
  if (platform === 'problog' && parts.length > 1) {
    return [{ text: parts.map((p) => p.text).join('\n\n'), media: parts.flatMap((p) => p.media) }];
  }
  return parts;
}

/** Parts for a direct text publish (single-network endpoints). */
export function partsFromTexts(platform: Platform, texts: string[], media: MediaRef[] = []): PartPlan[] {
  const parts = texts.map((text, i) => ({ text, media: i === 0 ? media : [] }));
  if (platform === 'problog' && parts.length > 1) return [{ text: texts.join('\n\n'), media }];
  return parts;
}
