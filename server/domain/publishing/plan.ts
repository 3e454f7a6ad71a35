/**
 * What each network receives for a draft: the per-network override when there is one (a line
 * holding only `---` separates posts), else the posts' plain text; LinkedIn has no threads, so
 * its first post is the post and the others its comments (text/network.ts).
 */
import { asPostAndComments, firstLink, pollAsText, splitThreadText } from '../../../text/index.js';
import type { Platform } from '../../core/config.js';
import { HeraldError } from '../../core/errors.js';
import type { AccountRow, PublishInputsRepo } from '../../db/repos/publish-inputs.repo.js';
import type { SocialSetsService } from '../social-sets/social-sets.service.js';
import type { DraftForPublishing, MediaRef, PartPlan, TargetRequest } from './model.js';

export function loadDraft(inputs: PublishInputsRepo, userId: string, draftId: string): DraftForPublishing {
  const row = inputs.draft(userId, draftId);
  if (!row) throw new HeraldError('NOT_FOUND', 'Draft not found');
  const stored = inputs.posts(row.id);
  const refs = stored.map((t) => JSON.parse(t.media) as MediaRef[]);
  const kinds = withKinds(inputs, userId, refs.flat());
  const posts = stored.map((t, i) => ({ plainText: t.plainText, media: refs[i].map(kinds) }));
  const overrides: Partial<Record<Platform, string>> = {};
  for (const pc of inputs.overrides(row.id)) {
    overrides[pc.platform as Platform] = pc.content;
  }
  return {
    id: row.id,
    userId: row.userId,
    title: row.title,
    status: row.status,
    socialSetId: row.socialSetId,
    selectedAccountIds: JSON.parse(row.selectedAccountIds) as string[],
    posts,
    overrides,
    language: row.language,
    linkCard: storedCard(row.linkCard),
    options: storedOptions(row.options),
  };
}

function storedOptions(stored: string | null): DraftForPublishing['options'] {
  if (!stored) return null;
  try {
    const v = JSON.parse(stored) as unknown;
    return v && typeof v === 'object' ? (v as DraftForPublishing['options']) : null;
  } catch {
    return null;
  }
}

function storedCard(stored: string | null): DraftForPublishing['linkCard'] {
  if (!stored) return null;
  if (stored === 'false') return false;
  try {
    const v = JSON.parse(stored) as { url?: unknown };
    return typeof v.url === 'string' ? { url: v.url } : null;
  } catch {
    return null;
  }
}

/**
 * Which page a card is made of and which post it goes under, for a network that takes cards
 * from the client: the chosen page (else the first link of the first post), under the first post
 * that holds it (else the first post); none when that post carries media (images win).
 */
export function planCard(
  choice: DraftForPublishing['linkCard'],
  firstText: string,
  parts: PartPlan[],
): { url: string; position: number } | undefined {
  if (choice === false || parts.length === 0) return undefined;
  const url = choice?.url ?? firstLink(firstText);
  if (!url) return undefined;
  const found = parts.findIndex((p) => p.text.includes(url));
  const position = found === -1 ? 0 : found;
  return parts[position].media.length > 0 ? undefined : { url, position };
}

/**
 * Adds each stored media item's type and size to its references (this user's items only); a reference to
 * an item that is gone keeps no `kind`, so the limits check refuses it before anything is sent.
 */
export function withKinds(inputs: PublishInputsRepo, userId: string, refs: MediaRef[]): (ref: MediaRef) => MediaRef {
  const ids = [...new Set(refs.map((r) => r.mediaId).filter((id): id is string => !!id))];
  const rows = inputs.mediaKinds(userId, ids);
  const found = new Map(
    rows.map((r) => [
      r.id,
      { kind: r.type as NonNullable<MediaRef['kind']>, size: r.size, rowAltText: r.altText, durationMs: r.durationMs },
    ]),
  );
  return (ref) => {
    const { kind: _kind, size: _size, rowAltText: _alt, durationMs: _d, ...rest } = ref;
    const row = ref.mediaId ? found.get(ref.mediaId) : undefined;
    return row ? { ...rest, ...row } : rest;
  };
}

/** Splits override text into posts at lines holding only `---` (the shared rule, text/). */
export function splitOverride(text: string): string[] {
  return splitThreadText(text);
}

export function partsFor(
  platform: Platform,
  draft: Pick<DraftForPublishing, 'posts' | 'overrides'> & { options?: DraftForPublishing['options'] },
): PartPlan[] {
  const parts = networkParts(platform, draft);
  // Bluesky has no polls: with the text fallback the choices go as numbered lines of the first post.
  const poll = draft.options?.poll;
  if (platform === 'skyblog' && poll && draft.options?.pollFallback === 'text' && parts[0])
    parts[0] = { ...parts[0], text: pollAsText(parts[0].text, poll) };
  return parts;
}

function networkParts(platform: Platform, draft: Pick<DraftForPublishing, 'posts' | 'overrides'>): PartPlan[] {
  const override = draft.overrides[platform];
  let parts: PartPlan[];
  if (override !== undefined && override.trim() !== '') {
    // Media stays with the post at the same position.
    parts = splitOverride(override).map((text, i) => ({ text, media: draft.posts[i]?.media ?? [] }));
  } else {
    parts = draft.posts.map((p) => ({ text: p.plainText, media: p.media }));
  }
  parts = parts.filter((p) => p.text.trim() !== '' || p.media.length > 0);
  return platform === 'problog' ? asPostAndComments(parts) : parts;
}

/** Parts for a direct text publish (single-network endpoints). */
export function partsFromTexts(platform: Platform, texts: string[], media: MediaRef[] = []): PartPlan[] {
  const parts = texts.map((text, i) => ({ text, media: i === 0 ? media : [] }));
  return platform === 'problog' ? asPostAndComments(parts) : parts;
}

/** Targets: explicit list, else account ids, else the draft's selection, else its set. */
export function resolveTargets(
  inputs: PublishInputsRepo,
  sets: SocialSetsService,
  userId: string,
  draft: { selectedAccountIds: string[]; socialSetId: string | null },
  req: { accountIds?: string[]; targetAccounts?: TargetRequest[] },
): { account: AccountRow; communityId?: string }[] {
  let wanted: TargetRequest[];
  if (req.targetAccounts?.length) wanted = req.targetAccounts;
  else if (req.accountIds?.length) wanted = req.accountIds.map((accountId) => ({ accountId }));
  else if (draft.selectedAccountIds.length) wanted = draft.selectedAccountIds.map((accountId) => ({ accountId }));
  else if (draft.socialSetId)
    wanted = sets.get(userId, draft.socialSetId).accounts.map((a) => ({ accountId: a.accountId }));
  else wanted = [];
  if (wanted.length === 0)
    throw new HeraldError(
      'INVALID_INPUT',
      "No target accounts: pass accountIds or targetAccounts, or put accounts in the draft's social set",
    );
  const byId = new Map<string, TargetRequest>();
  for (const w of wanted) if (!byId.has(w.accountId)) byId.set(w.accountId, w);
  const rows = new Map(inputs.accountsOf(userId, [...byId.keys()]).map((r) => [r.id, r]));
  return [...byId.values()].map((w) => {
    const id = w.accountId;
    const row = rows.get(id);
    if (!row) throw new HeraldError('NOT_FOUND', `Account ${id} not found`);
    if (w.platform && w.platform !== row.platform) {
      throw new HeraldError('INVALID_INPUT', `Account ${id} is a ${row.platform} account, not ${w.platform}`, {
        details: [{ path: 'targetAccounts', message: 'platform does not match the account' }],
      });
    }
    return { account: row, communityId: w.communityId };
  });
}
