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
export const ALT_TEXT_MAX = 1500;
