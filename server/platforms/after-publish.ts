/**
 * What the adapters answer after publishing (deletes, edits, metrics), shared by every network.
 * Counts a network does not report are null, never 0, so a chart can tell "none" from "unknown".
 */
import type { PostRef } from './adapter.js';

export interface PostMetrics {
  likes: number | null;
  reposts: number | null;
  replies: number | null;
  quotes: number | null;
  impressions: number | null;
}

/** Per `PostRef.id`: the counts, or `gone` when the network no longer holds the post. */
export type MetricsRead = Map<string, PostMetrics | 'gone'>;

export type DeleteOutcome = 'deleted' | 'gone';

/** A part of a publication: its position says whether it is the post itself (0) or a later part. */
export interface PartRef extends PostRef {
  position: number;
}

/** A count from an answer: a finite non-negative number, else null. */
export const count = (v: unknown): number | null =>
  typeof v === 'number' && Number.isFinite(v) && v >= 0 ? Math.floor(v) : null;

export const noMetrics = (): PostMetrics => ({
  likes: null,
  reposts: null,
  replies: null,
  quotes: null,
  impressions: null,
});
