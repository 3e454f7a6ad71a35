/**
 * The networks Herald publishes to, and their names as people know them: the one list. A leaf
 * with no imports, so the server's config, the text rules, the CLI and the UI all import it
 * without loading anything else.
 */
export const PLATFORMS = ['microblog', 'skyblog', 'fedblog', 'threadblog', 'problog'] as const;
export type Platform = (typeof PLATFORMS)[number];

export const NETWORK_LABELS: Record<Platform, string> = {
  microblog: 'X',
  skyblog: 'Bluesky',
  fedblog: 'Mastodon',
  threadblog: 'Threads',
  problog: 'LinkedIn',
};

// The words people write for each network in a file or a spreadsheet, beside the API's own.
const NAMES_PEOPLE_USE: Record<string, Platform> = {
  x: 'microblog',
  twitter: 'microblog',
  bluesky: 'skyblog',
  bsky: 'skyblog',
  mastodon: 'fedblog',
  threads: 'threadblog',
  linkedin: 'problog',
};

/** The network a word names, in any case: the API's word (microblog) or the name (X, Twitter, Bluesky...). */
export function platformNamed(word: string): Platform | undefined {
  const w = word.trim().toLowerCase();
  return (PLATFORMS as readonly string[]).includes(w) ? (w as Platform) : NAMES_PEOPLE_USE[w];
}
