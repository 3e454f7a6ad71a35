/**
 * What each network turns into links when it shows a post: URLs (X, Bluesky and Threads also
 * link bare domains; Mastodon and LinkedIn only links with a scheme), mentions and hashtags.
 * For drawing previews; counting stays in counting.ts.
 */
import twitterText from 'twitter-text';
import { findUrls, type FoundUrls } from './urls.js';
import type { Platform } from './counting.js';

export type EntityKind = 'url' | 'mention' | 'hashtag';
export interface Entity {
  kind: EntityKind;
  start: number;
  end: number;
  text: string;
}

const MENTION = /(?<![\p{L}\p{N}_@])@[\p{L}\p{N}_]+(?:[.-][\p{L}\p{N}_]+)*(?:@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+)?/gu;
const BARE_URLS: Record<Platform, boolean> = {
  microblog: true,
  skyblog: true,
  fedblog: false,
  threadblog: true,
  problog: false,
};

/** What every network's entities are made from: one pass over the text, shared by the five. */
export interface EntityScan {
  urls: FoundUrls;
  mentions: { 0: string; index: number }[];
  hashtags: { indices: [number, number] }[];
}

/** `urls`: findUrls of the text when the caller has it. */
export function scanEntities(text: string, urls: FoundUrls = findUrls(text)): EntityScan {
  return {
    urls,
    mentions: [...text.matchAll(MENTION)].map((m) => ({ 0: m[0], index: m.index })),
    hashtags: twitterText.extractHashtagsWithIndices(text),
  };
}

/** The links, mentions and hashtags of `text` as `platform` shows them, in order, not overlapping. */
export function entitiesFor(platform: Platform, text: string, scan: EntityScan = scanEntities(text)): Entity[] {
  const found: Entity[] = [];
  const urls = scan.urls;
  for (const u of BARE_URLS[platform] ? urls.all : urls.schemed)
    found.push({ kind: 'url', start: u.indices[0], end: u.indices[1], text: text.slice(u.indices[0], u.indices[1]) });
  // LinkedIn makes a mention only from its own picker: a typed @name stays text.
  if (platform !== 'problog') {
    for (const m of scan.mentions) {
      let t = m[0];
      // X and Threads handles have no dots: the mention ends before one.
      if (platform === 'microblog' || platform === 'threadblog') t = '@' + t.slice(1).split(/[.@-]/)[0];
      // Bluesky handles are domains: a bare @name is not a mention there.
      if (platform === 'skyblog' && !t.includes('.')) continue;
      found.push({ kind: 'mention', start: m.index, end: m.index + t.length, text: t });
    }
  }
  let tags = scan.hashtags.map((h) => ({
    kind: 'hashtag' as const,
    start: h.indices[0],
    end: h.indices[1],
    text: text.slice(h.indices[0], h.indices[1]),
  }));
  // Threads makes one topic tag per post: the first.
  if (platform === 'threadblog') tags = tags.slice(0, 1);
  found.push(...tags);
  found.sort((a, b) => a.start - b.start || b.end - a.end);
  const out: Entity[] = [];
  let at = 0;
  for (const e of found)
    if (e.start >= at) {
      out.push(e);
      at = e.end;
    }
  return out;
}

/** A URL as the network displays it in a post (the link itself is unchanged). */
export function displayUrl(platform: Platform, url: string): string {
  const bare = url.replace(/^https?:\/\//i, '');
  const cut = (s: string, n: number, tail = '…') => (s.length > n ? s.slice(0, n) + tail : s);
  switch (platform) {
    case 'microblog':
      return cut(bare.replace(/^www\./i, ''), 22); // t.co display_url
    case 'skyblog':
      return cut(bare, 25, '...');
    case 'fedblog':
      return cut(bare.replace(/^www\./i, ''), 30);
    case 'threadblog':
      return cut(bare.replace(/^www\./i, ''), 30);
    case 'problog':
      return url;
  }
}
