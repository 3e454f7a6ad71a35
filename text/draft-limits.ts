/**
 * How much text a draft holds (docs/decisions.md §4): far above every network's maximum
 * (LinkedIn's 3000) and small enough that counting a whole draft stays within a few hundred
 * milliseconds. A draft of 1,000,000 ASCII characters just fits the default 1 MiB JSON body; text
 * with multi-byte characters meets the body limit (413) before this one. The server refuses more,
 * and the composer does not send more.
 */
export const POST_TEXT_MAX = 100_000;
export const DRAFT_TEXT_MAX = 1_000_000;
/** A draft's title, a network's own text, the posts in one draft, alt text: the server refuses more. */
export const DRAFT_TITLE_MAX = 500;
export const PLATFORM_TEXT_MAX = 100_000;
export const DRAFT_POSTS_MAX = 100;
/**
 * Alt text on a draft (docs/decisions.md §11): above every network's own limit (LinkedIn's 4,086),
 * so a draft can hold what one network takes while another's verdict names its smaller limit.
 */
export const ALT_TEXT_MAX = 5000;

/**
 * Each network's alt-text limit (docs/decisions.md §11), counted its way by `altTextCount`
 * (text/alt-text.ts): X 1,000 characters, Bluesky 2,000 graphemes, Mastodon the instance's
 * `description_limit` (this when it says none), Threads 1,000, LinkedIn 4,086.
 */
export const ALT_TEXT_LIMITS = {
  microblog: 1000,
  skyblog: 2000,
  fedblog: 1500,
  threadblog: 1000,
  problog: 4086,
} as const;
