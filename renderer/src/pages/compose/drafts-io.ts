/**
 * A composition to and from the API: the one body a save sends (posts, per-network text and the
 * template together, so a save is one request), and an opened draft as the composer edits it.
 */
import {
  ALT_TEXT_MAX,
  DRAFT_POSTS_MAX,
  DRAFT_TEXT_MAX,
  DRAFT_TITLE_MAX,
  PLATFORM_TEXT_MAX,
  plainToHtml,
  PLATFORMS,
  POST_TEXT_MAX,
} from '../../../../text/index';
import { client } from '../../api';
import { networkName } from '../../components/ui';
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
    options: c.options ?? null,
    // What the editor shows is what is sent: the template is in the posts already.
    templateId: c.templateId || null,
    templateInText: true,
    platforms: PLATFORMS.map((platform) => ({ platform, content: c.overrides[platform] ?? '' })),
  };
}

const count = (n: number) => n.toLocaleString('en');

/**
 * Why the server would refuse `body` (the limits its contract checks) and what to do about it; undefined
 * when it would take it. Such work is not saved on its own (a request that can only fail, again on every
 * pause): it stays in the window and in localStorage until it fits.
 */
export function whyUnsaveable(body: ReturnType<typeof draftBody>): string | undefined {
  if (body.title.length > DRAFT_TITLE_MAX) return `the title is over ${count(DRAFT_TITLE_MAX)} characters. Shorten it`;
  const posts = body.tweets;
  if (posts.length > DRAFT_POSTS_MAX) {
    return `a draft holds at most ${count(DRAFT_POSTS_MAX)} posts (this one has ${count(posts.length)}). Split it`;
  }
  const huge = posts.findIndex((t) => t.content.length > POST_TEXT_MAX);
  if (huge >= 0) return `post ${huge + 1} is over ${count(POST_TEXT_MAX)} characters. Split it into a thread`;
  if (posts.reduce((n, t) => n + t.content.length, 0) > DRAFT_TEXT_MAX) {
    return `the posts are over ${count(DRAFT_TEXT_MAX)} characters in all. Split them into two drafts`;
  }
  for (const [i, t] of posts.entries()) {
    const m = t.media.findIndex((x) => (x.altText ?? '').length > ALT_TEXT_MAX);
    if (m >= 0) {
      return `the alt text of post ${i + 1}, media ${m + 1} is over ${count(ALT_TEXT_MAX)} characters. Shorten it`;
    }
  }
  const own = body.platforms.find((p) => p.content.length > PLATFORM_TEXT_MAX);
  if (own) return `the ${networkName(own.platform)} text is over ${count(PLATFORM_TEXT_MAX)} characters. Shorten it`;
  return undefined;
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
    options: draft.options,
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

/** A composition with nothing in it (a fresh New): no copy of it is kept in localStorage. */
export const isBlank = (c: Composition) => !c.title && c.posts.every((p) => !p.text && p.media.length === 0);

/** A pause in typing this long writes the copy; typing on without one writes it this often. */
const COPY_PAUSE_MS = 300;
const COPY_EVERY_MS = 1000;
/** When the first change not copied yet was made (one composer is open at a time). */
let uncopiedSince: number | undefined;

/**
 * How long until the copy is written, after a change. Not after every key: the copy is the whole
 * composition as JSON, written synchronously, which on a long thread cost as much as the key.
 */
export function copyDelay(now = Date.now()): number {
  uncopiedSince ??= now;
  return Math.max(0, Math.min(COPY_PAUSE_MS, uncopiedSince + COPY_EVERY_MS - now));
}

/** Keeps a copy until the server has it; checked when it runs, since New may have blanked it meanwhile. */
export function keepCopy(c: Composition): void {
  uncopiedSince = undefined;
  if (!isBlank(c)) localStorage.setItem(slot(c.draftId), JSON.stringify(c));
}
