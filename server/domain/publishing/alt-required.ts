/**
 * The setting `requireAltText` (docs/decisions.md §11): with it on, a draft whose image, GIF or
 * video has no alt text (neither on the post nor kept on the media item) cannot be published,
 * scheduled or queued, nor go by a single-network endpoint (its media URLs carry no alt text: only
 * this server's media with alt text kept on the item pass). Documents need none.
 */
import { HeraldError, type ErrorDetail } from '../../core/errors.js';
import type { MediaRef } from './model.js';

const WORD: Record<string, string> = { image: 'image', gif: 'GIF', video: 'video' };

const described = (ref: MediaRef) => ref.kind === 'document' || !!(ref.altText ?? ref.rowAltText ?? '').trim();

export function checkAltTexts(posts: readonly { media: readonly MediaRef[] }[], required: boolean): void {
  if (!required) return;
  const details: ErrorDetail[] = [];
  posts.forEach((post, n) =>
    post.media.forEach((ref, m) => {
      if (described(ref)) return;
      const what = `${WORD[ref.kind ?? 'image'] ?? 'item'} ${m + 1} of post ${n + 1}`;
      details.push({ path: `tweets.${n}.media.${m}.altText`, message: `${what} has no alt text` });
    }),
  );
  refuse(details);
}

/** A single-network publish's media (given by URL in the body's `field`), once resolved to media items. */
export function checkDirectAltTexts(media: readonly MediaRef[], required: boolean, field: string): void {
  if (!required) return;
  const details: ErrorDetail[] = [];
  media.forEach((ref, m) => {
    if (described(ref)) return;
    details.push({ path: `${field}.${m}`, message: `${WORD[ref.kind ?? 'image'] ?? 'item'} ${m + 1} has no alt text` });
  });
  refuse(details);
}

function refuse(details: ErrorDetail[]): void {
  if (details.length === 0) return;
  const shown = details
    .slice(0, 5)
    .map((d) => d.message)
    .join('; ');
  throw new HeraldError(
    'INVALID_INPUT',
    `Alt text is required on every image, GIF and video (Settings): ${shown}${details.length > 5 ? '; …' : ''}`,
    { details },
  );
}
