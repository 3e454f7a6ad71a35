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
