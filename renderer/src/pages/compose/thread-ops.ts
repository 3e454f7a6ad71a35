/**
 * The one-click fixes the rules panel offers: split text that does not fit into a thread (with
 * text/'s splitter, for every selected network that has threads, strictest first), and move
 * images beyond what a post takes into posts of their own.
 */
import {
  joinThreadText,
  limitFor,
  networkRules,
  splitForPlatform,
  splitThreadText,
  type CountOptions,
  type Platform,
} from '../../../../text/index';
import { verdictOf } from './preview/analysis';
import { blankPost, type Post } from './model';

type Opts = Partial<Record<Platform, CountOptions>>;

/** Networks with threads, the one with the smallest limit first. */
export function threaded(platforms: readonly Platform[], opts: Opts): Platform[] {
  return platforms
    .filter((p) => networkRules(p, opts[p]).threads)
    .sort((a, b) => limitFor(a, opts[a]) - limitFor(b, opts[b]));
}

/** `text` as posts that fit each of `platforms` (already sorted strictest first). */
export function splitText(text: string, platforms: readonly Platform[], opts: Opts): string[] {
  let parts = [text];
  for (const pl of platforms)
    parts = parts.flatMap((t) =>
      verdictOf(pl, t, [], opts[pl]).count > limitFor(pl, opts[pl]) ? splitForPlatform(t, pl, opts[pl]) : [t],
    );
  return parts;
}

/** The thread with every post too long for a threaded network split; media stays with the first part. */
export function splitPosts(posts: Post[], platforms: readonly Platform[], opts: Opts): Post[] {
  return posts.flatMap((p) => {
    const parts = splitText(p.text, platforms, opts);
    if (parts.length < 2) return [p];
    return [{ ...p, text: parts[0] }, ...parts.slice(1).map((t) => blankPost(t))];
  });
}

/** A network's own text with its too-long posts split. */
export function splitOverride(text: string, platform: Platform, opts: Opts): string {
  return joinThreadText(splitThreadText(text).flatMap((t) => splitText(t, [platform], opts)));
}

/** The fewest images one post takes among `platforms` (those with threads). */
export function imagesPerPost(platforms: readonly Platform[], opts: Opts): number {
  return Math.min(...platforms.map((p) => networkRules(p, opts[p]).images));
}

/** Posts holding more than `max` media become several: the extra media follow in new posts. */
export function splitMedia(posts: Post[], max: number): Post[] {
  return posts.flatMap((p) => {
    if (p.media.length <= max) return [p];
    const out: Post[] = [{ ...p, media: p.media.slice(0, max) }];
    for (let k = max; k < p.media.length; k += max) out.push({ ...blankPost(), media: p.media.slice(k, k + max) });
    return out;
  });
}
