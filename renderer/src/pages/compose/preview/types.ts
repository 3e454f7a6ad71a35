/** What a network preview is drawn from. */
import type { CountOptions, Platform, Verdict } from '../../../../../text/index';
import type { MediaRef } from '../model';

/** Who the post appears from: the chosen account. */
export interface Identity {
  name: string;
  handle: string;
  avatar?: string;
  server?: string;
  /** The account's username; absent when none is chosen (the preview then shows "you"). */
  username?: string;
}

/** A link card (GET /link-preview's `card`); absent: no card is drawn. */
export interface LinkCardData {
  url: string;
  title: string;
  description: string;
  imageUrl?: string | null;
  siteName?: string | null;
}

/** One post of the thread as one network receives it. */
export interface PreviewPostProps {
  platform: Platform;
  identity: Identity;
  text: string;
  media: MediaRef[];
  /** Changes when the media or their alt text change (media arrays are rebuilt every render). */
  mediaKey: string;
  verdict: Verdict;
  opts: CountOptions;
  index: number;
  total: number;
  card?: LinkCardData;
}

export const mediaKeyOf = (media: readonly MediaRef[]) =>
  media.map((m) => `${m.mediaId}:${m.type}:${m.altText}:${m.title ?? ''}:${m.pages ?? ''}`).join('|');
