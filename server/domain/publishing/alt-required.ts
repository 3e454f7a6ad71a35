/**
 * The setting `requireAltText` (docs/decisions.md §11): with it on, a draft whose image, GIF or
 * video has no alt text (neither on the post nor kept on the media item) cannot be published,
 * scheduled or queued. One check, called where each of the three begins.
 */
import { HeraldError, type ErrorDetail } from '../../core/errors.js';
import type { MediaRef } from './model.js';

const WORD: Record<string, string> = { image: 'image', gif: 'GIF', video: 'video' };

export function checkAltTexts(posts: readonly { media: readonly MediaRef[] }[], required: boolean): void {
  if (!required) return;
  const details: ErrorDetail[] = [];
  posts.forEach((post, n) =>
    post.media.forEach((ref, m) => {
      if ((ref.altText ?? ref.rowAltText ?? '').trim()) return;
      const what = `${WORD[ref.kind ?? 'image'] ?? 'item'} ${m + 1} of post ${n + 1}`;
      details.push({ path: `tweets.${n}.media.${m}.altText`, message: `${what} has no alt text` });
    }),
  );
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
