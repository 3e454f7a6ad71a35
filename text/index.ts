/**
 * Text rules shared by the server, the client library, the CLI and the UI: per-network counting
 * and validation, the thread splitter, plain text as post HTML. No Node-only imports.
 */
export {
  PLATFORMS,
  DEFAULT_LIMITS,
  MEDIA_LIMITS,
  NETWORK_LABELS,
  SKYBLOG_MAX_BYTES,
  LINKEDIN_COMMENT_LIMIT,
  FEDBLOG_URL_LENGTH,
  graphemeCount,
  graphemes,
  graphemeBoundaries,
  utf8Length,
  limitFor,
  countText,
  measureText,
  addMeasures,
  verdictOfMeasure,
  checkMedia,
  validatePost,
  strictest,
  countOptionsFromMeta,
  TextFacts,
  type Platform,
  type MediaKind,
  type CountOptions,
  type Verdict,
  type Measure,
} from './counting.js';
export { countSegments, measureInPieces, SEGMENT } from './segments.js';
export { splitForPlatform, splitThreadText, joinThreadText } from './split.js';
export { postsForNetwork, checkNetworkPosts, partOptions, asPostAndComments, type NetworkPost } from './network.js';
export { plainToHtml } from './html.js';
export { overflowAt, overflowSearch } from './overflow.js';
export { entitiesFor, displayUrl, scanEntities, type Entity, type EntityKind, type EntityScan } from './entities.js';
export { networkRules, type NetworkRules } from './rules.js';
export { linksIn, firstLink } from './links.js';
export { detectLanguage, type LanguageGuess } from './language.js';
export {
  POST_TEXT_MAX,
  DRAFT_TEXT_MAX,
  DRAFT_TITLE_MAX,
  PLATFORM_TEXT_MAX,
  DRAFT_POSTS_MAX,
  ALT_TEXT_MAX,
  ALT_TEXT_LIMITS,
} from './draft-limits.js';
export { altTextLimit, altTextCount, altTextProblem } from './alt-text.js';
export {
  REPLY_CONTROLS,
  QUOTE_CONTROLS,
  VISIBILITIES,
  SELF_LABELS,
  POLL_LIMITS,
  CONTENT_WARNING_MAX,
  TOPIC_TAG_MAX,
  CAPABILITIES,
  THREADS_MAX_LINKS,
  optionsVerdict,
  hasOptions,
  linkedInPollDays,
  pollAsText,
  type PostOptionsValue,
  type PollOption,
  type DroppedOption,
  type OptionsVerdict,
  type NetworkPollLimits,
} from './post-options.js';
export { parseQuoteUrl, type QuotedPost } from './quote-url.js';
