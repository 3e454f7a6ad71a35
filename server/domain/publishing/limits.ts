/**
 * Every network's limits are checked for every target before anything is sent or charged, so a
 * post that one network would refuse stops the whole publish with a clear INVALID_INPUT naming
 * the account, the post and the reason. Text and media are judged by the shared counting module
 * (text/), the same rules the composer and the draft's `validation` show, with the
 * account's own limits (a Mastodon instance's `max_characters`, an X premium limit).
 */
import { checkNetworkPosts, countOptionsFromMeta, optionsVerdict, type MediaKind } from '../../../text/index.js';
import { pollLimitsFromMeta } from '../drafts/draft-options.js';
import type { Platform } from '../../core/config.js';
import { HeraldError, type ErrorDetail } from '../../core/errors.js';
import { NETWORK_NAMES } from '../../platforms/errors.js';
import { SKYBLOG_IMAGE_MAX_BYTES } from '../../platforms/skyblog/images.js';
import type { AccountRow } from '../accounts/accounts.service.js';
import type { PartPlan, PublicationOptions } from './model.js';
import { accountHandle } from '../../core/handles.js';
import { videoProblem } from '../../../text/video-limits.js';

/** What the checks need beyond the parts: whether a media relay is set up (Threads with uploaded media). */
export interface CheckFacts {
  relay?: boolean;
}

/** Threads' verdict on uploaded media without a relay (docs/decisions.md §11). */
export const THREADS_NEEDS_RELAY = 'Threads takes media from a public address: set up a media relay in Settings';

type NetworkVerdict = ReturnType<typeof checkNetworkPosts>;

function metaOf(account: AccountRow): Record<string, unknown> {
  try {
    const v = JSON.parse(account.meta) as unknown;
    return v && typeof v === 'object' ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** A media reference's kind: from the media row (loadDraft, publishDirect), else a URL's ending. */
function kindOf(ref: PartPlan['media'][number]): MediaKind | undefined {
  if (ref.kind) return ref.kind;
  if (!ref.mediaId && ref.url)
    return /\.(mp4|mov)(\?|$)/i.test(ref.url) ? 'video' : /\.gif(\?|$)/i.test(ref.url) ? 'gif' : 'image';
  return undefined;
}

/** What is wrong with one target's parts, as details naming the account and the post. */
function partProblems(
  account: AccountRow,
  parts: PartPlan[],
  verdicts: Map<string, NetworkVerdict>,
  facts: CheckFacts,
  publication?: PublicationOptions,
): ErrorDetail[] {
  const platform = account.platform as Platform;
  const name = NETWORK_NAMES[platform];
  const who = `${name} ${accountHandle(platform, account.username)}`;
  const at = (i?: number) => `targets.${account.id}${i === undefined ? '' : `.posts.${i}`}`;
  if (parts.length === 0) return [{ path: at(), message: `${who}: nothing to publish` }];
  const details: ErrorDetail[] = [];
  const label = (i: number) => (parts.length > 1 ? `post ${i + 1} of ${parts.length}` : 'the post');
  const kinds: MediaKind[][] = [];
  parts.forEach((part, i) => {
    const list: MediaKind[] = [];
    // Threads downloads media from a public URL itself: files kept by Herald go through the relay.
    if (platform === 'threadblog' && !facts.relay && part.media.some((ref) => ref.mediaId)) {
      details.push({ path: `${at(i)}.media`, message: `${who}: ${THREADS_NEEDS_RELAY}` });
    }
    for (const ref of part.media) {
      const kind = kindOf(ref);
      if (!kind) {
        details.push({
          path: `${at(i)}.media`,
          message:
            `${who}: ${label(i)} refers to media ${ref.mediaId ?? ''} that no longer exists; remove it or ` +
            `upload it again`,
        });
        continue;
      }
      // Bluesky's PDS takes images under about 1 MB, less than Herald accepts (5 MB). Still images
      // over it are re-encoded smaller when sent; an animated GIF cannot be.
      if (platform === 'skyblog' && kind === 'gif' && ref.size !== undefined && ref.size > SKYBLOG_IMAGE_MAX_BYTES) {
        details.push({
          path: `${at(i)}.media`,
          message:
            `${who}: ${label(i)} has a GIF of ${(ref.size / 1000).toFixed(0)} KB, over Bluesky's limit of ` +
            `${SKYBLOG_IMAGE_MAX_BYTES} bytes per image, and a GIF cannot be made smaller without losing its ` +
            `animation; use a smaller GIF`,
        });
      }
      if (kind === 'video') {
        const why = videoProblem(platform, ref, metaOf(account));
        if (why) details.push({ path: `${at(i)}.media`, message: `${who}: ${label(i)} cannot go as it is: ${why}` });
      }
      list.push(kind);
    }
    kinds.push(list);
  });
  const posts = parts.map((p, i) => ({
    text: p.text,
    media: kinds[i],
    alts: p.media.filter((ref) => kindOf(ref)).map((ref) => ref.altText ?? ref.rowAltText),
  }));
  const options = countOptionsFromMeta(platform, metaOf(account));
  // Accounts of one network with the same limits get the same verdict: counted once per request.
  const key = JSON.stringify([platform, options, posts]);
  let verdict = verdicts.get(key);
  if (!verdict) {
    verdict = checkNetworkPosts(platform, posts, options);
    verdicts.set(key, verdict);
  }
  verdict.posts.forEach((v, i) => {
    if (v.valid) return;
    const why = v.reason ?? `${v.count} of ${v.limit} characters`;
    const message =
      v.count > v.limit || /bytes/.test(why)
        ? `${label(i)} does not fit (${why})`
        : v.reason === 'the post is empty'
          ? `${label(i)} is empty`
          : `${label(i)} cannot go as it is: ${why}`;
    details.push({ path: at(i), message: `${who}: ${message}` });
  });
  for (const p of optionsCheck(account, parts, publication).problems)
    details.push({ path: `${at()}.options.${p.option}`, message: `${who}: ${p.reason}` });
  return details;
}

/** What a target's network drops of the draft's options and what it cannot take (text/post-options.ts). */
export function optionsCheck(account: AccountRow, parts: PartPlan[], options?: PublicationOptions) {
  const platform = account.platform as Platform;
  return optionsVerdict(platform, options?.post, {
    texts: parts.map((p) => p.text),
    firstMedia: parts[0]?.media.length ?? 0,
    pollLimits: pollLimitsFromMeta(platform, metaOf(account)),
    handle: account.username,
  });
}

export function checkParts(
  targets: { account: AccountRow; parts: PartPlan[]; options?: PublicationOptions }[],
  facts: CheckFacts = {},
): void {
  const verdicts = new Map<string, NetworkVerdict>();
  const details = targets.flatMap(({ account, parts, options }) =>
    partProblems(account, parts, verdicts, facts, options),
  );
  if (details.length > 0) {
    const shown = details
      .slice(0, 5)
      .map((d) => d.message)
      .join('; ');
    const more = details.length > 5 ? `; and ${details.length - 5} more` : '';
    throw new HeraldError('INVALID_INPUT', `Nothing was sent or charged: ${shown}${more}`, { details });
  }
}
