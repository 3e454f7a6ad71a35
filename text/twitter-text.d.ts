/** The few twitter-text 3.1 functions Herald uses (the package ships no types). */
declare module 'twitter-text' {
  export interface ParsedTweet {
    weightedLength: number;
    valid: boolean;
    permillage: number;
    validRangeStart: number;
    validRangeEnd: number;
    displayRangeStart: number;
    displayRangeEnd: number;
  }
  export interface TweetConfig {
    version: number;
    maxWeightedTweetLength: number;
    scale: number;
    defaultWeight: number;
    emojiParsingEnabled: boolean;
    transformedURLLength: number;
    ranges: { start: number; end: number; weight: number }[];
  }
  /** Start inclusive, end exclusive; UTF-16 indices into the text. */
  export interface EntityWithIndices {
    indices: [number, number];
  }
  export interface UrlEntity extends EntityWithIndices { url: string }
  export interface MentionEntity extends EntityWithIndices { screenName: string }
  export interface HashtagEntity extends EntityWithIndices { hashtag: string }
  interface TwitterText {
    parseTweet(text: string, config?: TweetConfig): ParsedTweet;
    extractUrlsWithIndices(text: string, options?: { extractUrlsWithoutProtocol?: boolean }): UrlEntity[];
    extractMentionsWithIndices(text: string): MentionEntity[];
    extractHashtagsWithIndices(text: string): HashtagEntity[];
    hasInvalidCharacters(text: string): boolean;
    /** The library's building-block patterns (text/urls.ts reads a few). */
    regexen: Record<'validDomainChars' | 'validGTLD' | 'validCCTLD' | 'validPunycode' | 'validGeneralUrlPathChars' | 'extractUrl' | 'validAsciiDomain' | 'invalidUrlWithoutProtocolPrecedingChars' | 'validTcoUrl', RegExp>;
    configs: { defaults: TweetConfig; version3: TweetConfig };
  }
  const twitterText: TwitterText;
  export default twitterText;
}

/** twemoji-parser's generated emoji pattern (CommonJS, `exports.default`). */
declare module 'twemoji-parser/dist/lib/regex.js' {
  const regex: RegExp;
  export default regex;
}
