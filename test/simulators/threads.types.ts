// The shapes of the Threads simulator (threads.simulator.ts): its users, posts, options, state and handle.
import type { ThreadsOptions } from './threads.options.js';
import type { Faults, PostCounter } from './common.js';

export interface ThreadsUser {
  id: string;
  username: string;
  name: string;
}

export interface ThreadsContainer {
  id: string;
  userId: string;
  mediaType: 'TEXT' | 'IMAGE' | 'VIDEO' | 'CAROUSEL';
  text: string;
  mediaUrl?: string;
  /** `alt_text` as sent with an IMAGE or VIDEO container. */
  altText?: string;
  fetched?: { contentType: string; bytes: Buffer };
  isCarouselItem: boolean;
  children: string[];
  replyToId?: string;
  replyControl?: string;
  /** Poll, topic tag, spoilers and quote as sent (threads.options.ts). */
  options?: ThreadsOptions;
  status: 'IN_PROGRESS' | 'FINISHED' | 'PUBLISHED' | 'ERROR' | 'EXPIRED';
  errorMessage?: string;
  readyAt: number;
  publishedId?: string;
}

export interface ThreadsPost {
  id: string;
  userId: string;
  containerId: string;
  mediaType: string;
  text: string;
  replyToId?: string;
  replyControl?: string;
  children: string[];
  shortcode: string;
  createdAt: number;
  seq: number;
}

export interface ThreadsSimulatorOptions {
  /** Latency added to every request, ms (fan-out benchmarks); also settable later via faults.latencyMs. */
  latencyMs?: number;
  clientId?: string;
  clientSecret?: string;
  /** A container stays IN_PROGRESS this long after creation (default 200 ms). */
  containerReadyMs?: number;
  /** Posts a user may publish in the rolling 24 h (default 250, Threads' own; benchmarks lift it). */
  postsPerDay?: number;
  /** A long-lived token can be refreshed only once it is this old (default 24 h). */
  minRefreshAgeSec?: number;
  /** The app's registered "Redirect Callback URLs"; others are refused at the authorize window. */
  redirectUris?: string[];
  /** Refuse any redirect URI that is not HTTPS, as the real Threads does (docs/decisions.md §19.4). */
  httpsRedirectsOnly?: boolean;
  /**
   * The clock of the publishing quota (posts' times and the rolling 24 h window), default
   * Date.now: a test shares Herald's injected clock with it.
   */
  now?: () => number;
}

export interface Token {
  userId: string;
  kind: 'short' | 'long';
  issuedAt: number;
  expiresAt: number;
}

export interface ThreadsState {
  /** The next person at the authorize window presses Cancel. */
  denyNext?: boolean;
  users: ThreadsUser[];
  containers: Map<string, ThreadsContainer>;
  posts: ThreadsPost[];
  tokens: Map<string, Token>;
  issuedTokens: string[];
  refreshCalls: number;
  /** Refresh calls per user (LinkedIn: member sub; Threads: user id). */
  refreshCallsByUser: Map<string, number>;
  exchangeCalls: number;
  counter: PostCounter;
  /** Publish attempts refused because the container was not FINISHED. */
  notReadyPublishes: number;
  /** GET threads_publishing_limit calls, and publishes refused over the 24 h quota. */
  quotaChecks?: number;
  quotaRefusals?: number;
  /**
   * The next this many threads_publish calls answer "Media Not Found" (24 / 4279009) although
   * the container already says FINISHED: Threads' race between its status and publish endpoints.
   */
  publishRaces: number;
  /** Every media download the simulator made (as Meta does when a container is made), in order. */
  fetches?: { url: string; status: number; ok: boolean }[];
}

export interface ThreadsSimulator {
  url: string;
  port: number;
  close(): Promise<void>;
  faults: Faults;
  requests: string[];
  state: ThreadsState;
  clientId: string;
  clientSecret: string;
  authorizeUrl: string;
  /** POST: code → short-lived token. */
  tokenUrl: string;
  /** Graph base with version, e.g. `${url}/v1.0`. */
  graphBase: string;
  addUser(u: { username: string; name?: string }): ThreadsUser;
  setCurrentUser(username: string): void;
  /** Pretend every token was issued `seconds` earlier (for the 24 h refresh rule). */
  ageTokens(seconds: number): void;
  expireAccessTokens(): void;
  postsBy(username: string): ThreadsPost[];
  countPosts(username: string, text: string): number;
  /** Adds `count` posts (not replies) made at `at` (the quota clock's ms), as if published outside Herald. */
  seedPosts(username: string, count: number, at: number): void;
}
