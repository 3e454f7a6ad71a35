/**
 * Each network's rules as a person needs them before publishing (docs/decisions.md §19.1): the text
 * limit and how links count, what one post may carry, whether it has threads, and whether it
 * must download media from a public URL. Built from the same numbers counting.ts checks with.
 */
import { FEDBLOG_URL_LENGTH, limitFor, MEDIA_LIMITS, type CountOptions, type Platform } from './counting.js';

export interface NetworkRules {
  platform: Platform;
  /** Characters (X: weighted) per post. */
  limit: number;
  /** How a link counts, in words. */
  links: string;
  /** Images one post takes. */
  images: number;
  /** Largest image the network takes, in bytes (undefined: not documented). */
  imageBytes?: number;
  /**
   * Herald re-encodes a still image over imageBytes smaller before sending it (Bluesky:
   * server/core/images.ts), so only an animated GIF over it stops the post.
   */
  shrinksStills: boolean;
  /** Largest animated GIF, where it differs from imageBytes (X: 15 MB). */
  gifBytes?: number;
  /** Whether a post can be followed by replies of the same author (a thread). */
  threads: boolean;
  /** The network fetches media from a public URL; a file kept only in Herald cannot go. */
  publicMediaOnly: boolean;
  /** Whether the numbers come from the account's own server (a Mastodon instance). */
  fromInstance: boolean;
}

const MB = 1024 * 1024;
/** bsky.social's upload cap per image (976.56 KB), as the Bluesky adapter sends to it. */
const SKYBLOG_IMAGE_BYTES = 976_560;

export function networkRules(platform: Platform, opts: CountOptions = {}): NetworkRules {
  const limit = limitFor(platform, opts);
  const images =
    platform === 'fedblog' && opts.maxMediaAttachments ? opts.maxMediaAttachments : MEDIA_LIMITS[platform].images;
  const fromInstance =
    platform === 'fedblog' && Boolean(opts.maxCharacters || opts.charactersReservedPerUrl || opts.maxMediaAttachments);
  switch (platform) {
    case 'microblog':
      return {
        platform,
        limit,
        links: 'every link counts 23 characters',
        images,
        imageBytes: 5 * MB,
        gifBytes: 15 * MB,
        shrinksStills: false,
        threads: true,
        publicMediaOnly: false,
        fromInstance,
      };
    case 'skyblog':
      return {
        platform,
        limit,
        links: 'links count their full length',
        images,
        imageBytes: SKYBLOG_IMAGE_BYTES,
        shrinksStills: true,
        threads: true,
        publicMediaOnly: false,
        fromInstance,
      };
    case 'fedblog':
      return {
        platform,
        limit,
        links: `every link counts ${opts.charactersReservedPerUrl ?? FEDBLOG_URL_LENGTH} characters`,
        images,
        imageBytes: 16 * MB,
        shrinksStills: false,
        threads: true,
        publicMediaOnly: false,
        fromInstance,
      };
    case 'threadblog':
      return {
        platform,
        limit,
        links: 'links count their full length',
        images,
        imageBytes: 8 * MB,
        shrinksStills: false,
        threads: true,
        publicMediaOnly: true,
        fromInstance,
      };
    case 'problog':
      return {
        platform,
        limit,
        links: 'links count their full length',
        images,
        imageBytes: undefined,
        shrinksStills: false,
        threads: false,
        publicMediaOnly: false,
        fromInstance,
      };
  }
}
