/**
 * A composition to and from the API: the one body a save sends (posts, per-network text and the
 * template together, so a save is one request), and an opened draft as the composer edits it.
 */
import { plainToHtml, PLATFORMS } from '../../../../text/index';
import { client } from '../../api';
import { blank, newKey, slot, type Composition } from './model';

type Account = { uuid: string };

/** The create/update body for `c`; `targets` are the accounts it goes to, of `setAccounts`. */
export function draftBody(c: Composition, targets: readonly Account[], setAccounts: readonly Account[]) {
  const firstLine = c.posts
    .find((p) => p.text.trim())
    ?.text.trim()
    .split('\n')[0]
    .slice(0, 80);
  return {
    title: c.title.trim() || firstLine || 'Untitled',
    tweets: c.posts.map((p, position) => ({
      content: plainToHtml(p.text),
      position,
      media: p.media.map((m) => ({ mediaId: m.mediaId, altText: m.altText || undefined })),
    })),
    socialSetId: c.socialSetId || undefined,
    // Leaving out an account that cannot post is a choice the draft keeps (the queue reads it).
    selectedAccountIds:
      c.selectedAccountIds.length || targets.length === setAccounts.length
        ? c.selectedAccountIds
        : targets.map((a) => a.uuid),
    language: c.language,
    linkCard: c.linkCard,
    // What the editor shows is what is sent: the template is in the posts already.
    templateId: c.templateId || null,
    templateInText: true,
    platforms: PLATFORMS.map((platform) => ({ platform, content: c.overrides[platform] ?? '' })),
  };
}

/** A saved draft as the composer edits it. */
export async function openDraft(id: string) {
  const [{ draft }, { platforms: own }] = await Promise.all([client.getDraft(id), client.getDraftPlatforms(id)]);
  const composition: Composition = {
    draftId: draft.id,
    title: draft.title,
    posts: draft.tweets.map((t) => ({
      key: newKey(),
      text: t.plainText,
      media: t.media
        .filter((m) => m.type)
        .map((m) => ({
          mediaId: m.mediaId,
          altText: m.altText ?? '',
          type: m.type!,
          url: `${client.baseUrl}/media/${m.mediaId}`,
        })),
    })),
    socialSetId: draft.socialSetId ?? '',
    selectedAccountIds: draft.selectedAccountIds,
    templateId: draft.templateId ?? '',
    overrides: Object.fromEntries(own.map((p) => [p.platform, p.content])),
    status: draft.status,
    language: draft.language,
    linkCard: draft.linkCard,
  };
  return { draft, composition };
}

/** The copy of unsaved work kept for a draft (or for a new one), or null (none, or not readable). */
export function unsavedCopy(draftId: string | undefined): Composition | null {
  try {
    const saved = JSON.parse(localStorage.getItem(slot(draftId)) ?? 'null') as Composition | null;
    if (!saved || (saved.draftId ?? undefined) !== draftId || !Array.isArray(saved.posts)) return null;
    return { ...blank(), ...saved, posts: saved.posts.map((p) => ({ ...p, key: newKey() })) };
  } catch {
    return null; // a broken copy is ignored
  }
}
