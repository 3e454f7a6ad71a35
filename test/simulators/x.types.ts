// The shapes of the X simulator (x.simulator.ts): its users, posts, options, state and handle.
import type { Faults, PostCounter } from './common.js';
import type { XMedia } from './x.media.js';
import type { XPostOptions } from './x.options.js';

export interface XUser {
  id: string;
  username: string;
  name: string;
  followers: number;
  following: number;
}

export interface XPost {
  id: string;
  authorId: string;
  text: string;
  replyTo?: string;
  quoteOf?: string;
  communityId?: string;
  mediaIds: string[];
  createdAt: string;
  seq: number;
  /** Poll, reply_settings and disclosure flags as sent (x.options.ts). */
  options?: XPostOptions;
}

export interface XSimulatorOptions {
  /** Latency added to every request, ms (fan-out benchmarks); also settable later via faults.latencyMs. */
  latencyMs?: number;
  clientId?: string;
  /** When set, the client is confidential and must authenticate with Basic auth (or body secret). */
  clientSecret?: string;
  accessTokenTtlSec?: number;
  /** Rate-limit window budget per user per endpoint family (default 100 for tweets). */
  tweetLimit?: number;
  /**
   * Reject identical text from the same user with X's duplicate 403 (default true); settable later through
   * `state.rejectDuplicates`.
   */
  rejectDuplicates?: boolean;
  /** STATUS polls before processing succeeds for video/GIF (default 1). */
  processingPolls?: number;
  checkAfterSecs?: number;
  maxWeightedLength?: number;
  /** Presenting an already-used refresh token revokes every token of that grant (reported X behaviour). */
  reuseRevokesChain?: boolean;
  /** When set, authorize and token refuse other redirect URIs. */
  redirectUris?: string[];
  /**
   * A new post shows in the user's timeline (GET /2/users/:id/tweets) only this long after it
   * was made, as X's timelines lag its writes; settable later through `state.timelineDelayMs`.
   */
  timelineDelayMs?: number;
}

export interface Token {
  userId: string;
  chain: string;
  scopes: string[];
  expiresAt: number;
}

export interface XState {
  users: XUser[];
  posts: XPost[];
  media: Map<string, XMedia>;
  accessTokens: Map<string, Token>;
  refreshTokens: Map<string, { userId: string; scopes: string[]; used: boolean; chain: string }>;
  /** Every token string ever issued (access and refresh). */
  issuedTokens: string[];
  refreshCalls: number;
  /** Refresh calls per user id. */
  refreshCallsByUser: Map<string, number>;
  follows: { source: string; target: string }[];
  counter: PostCounter;
  duplicateRejections: number;
  timelineDelayMs: number;
  rejectDuplicates: boolean;
}

export interface XSimulator {
  url: string;
  port: number;
  close(): Promise<void>;
  faults: Faults;
  state: XState;
  /** The ids of each GET /2/tweets?ids= read, in order. */
  metricReads: string[][];
  requests: string[];
  clientId: string;
  clientSecret?: string;
  authorizeUrl: string;
  tokenUrl: string;
  /** Base for REST calls, e.g. `${url}/2/`. */
  apiBase: string;
  addUser(u: { username: string; name?: string; followers?: number; following?: number }): XUser;
  /** The user the authorize endpoint logs in (default: the first user). */
  setCurrentUser(username: string): void;
  /** Make every issued access token expire now. */
  expireAccessTokens(): void;
  postsBy(username: string): XPost[];
  countPosts(username: string, text: string): number;
}
