// The shapes of the LinkedIn simulator (linkedin.simulator.ts): its members, posts, images, options,
// state and handle.
import type { Faults, PostCounter, SimReply } from './common.js';
import type { LinkedInCommentRecord } from './linkedin.comments.js';
import type { LinkedInMediaState } from './linkedin.media.js';

export interface LinkedInMember {
  sub: string;
  name: string;
  givenName: string;
  familyName: string;
  email: string;
}

export interface LinkedInPost {
  urn: string;
  author: string;
  /** Commentary as sent. */
  commentary: string;
  /** Commentary as LinkedIn keeps it (cut at the first unescaped reserved character). */
  keptCommentary: string;
  truncated: boolean;
  visibility: string;
  lifecycleState: string;
  content?: Record<string, any>;
  imageUrns: string[];
  createdAt: number;
  seq: number;
  /** reshareContext.parent as sent (linkedin.options.ts). */
  reshareParent?: string;
  isReshareDisabledByAuthor?: boolean;
}

export interface LinkedInImage {
  urn: string;
  owner: string;
  uploadId: string;
  bytes?: Buffer;
  /** GET /rest/images answers PROCESSING this many times after the upload. */
  processingLeft: number;
}

export interface LinkedInSimulatorOptions {
  /** Latency added to every request, ms (fan-out benchmarks); also settable later via faults.latencyMs. */
  latencyMs?: number;
  clientId?: string;
  clientSecret?: string;
  /** Issue (non-rotating) refresh tokens, as for apps approved for programmatic refresh. */
  programmaticRefresh?: boolean;
  /** Oldest LinkedIn-Version still served (default 202501); older ones get 426. */
  oldestVersion?: string;
  rejectDuplicates?: boolean;
  /** The app's "Authorized redirect URLs"; others are refused at the authorization page. */
  redirectUris?: string[];
}

export interface LinkedInState {
  /** The next member at the authorization page presses Cancel. */
  cancelNext?: boolean;
  members: LinkedInMember[];
  posts: LinkedInPost[];
  images: Map<string, LinkedInImage>;
  tokens: Map<string, { sub: string; scopes: string[]; expiresAt: number }>;
  refreshTokens: Map<string, { sub: string; scopes: string[] }>;
  issuedTokens: string[];
  refreshCalls: number;
  /** Refresh calls per user (LinkedIn: member sub; Threads: user id). */
  refreshCallsByUser: Map<string, number>;
  counter: PostCounter;
  /** The app lacks the Community Management API product: r_member_postAnalytics is refused at sign-in. */
  noAnalyticsProduct?: boolean;
}

export interface LinkedInSimulator {
  url: string;
  port: number;
  close(): Promise<void>;
  faults: Faults;
  requests: string[];
  state: LinkedInState;
  clientId: string;
  clientSecret: string;
  authorizeUrl: string;
  tokenUrl: string;
  /** Videos and documents (linkedin.media.ts). */
  media: LinkedInMediaState;
  /** Comments accepted, in order (linkedin.comments.ts). */
  comments: LinkedInCommentRecord[];
  /** Versioned REST base: `${url}/rest`. */
  restBase: string;
  /** Non-versioned base: `${url}/v2`. */
  v2Base: string;
  addMember(m: { name: string; email?: string }): LinkedInMember;
  setCurrentUser(name: string): void;
  expireAccessTokens(): void;
  postsBy(name: string): LinkedInPost[];
  countPosts(name: string, commentary: string): number;
}

/** Who a request is (from its token), or the refusal LinkedIn answers instead. */
export type LinkedInWho = { sub: string; urn: string } | SimReply;

/** LinkedIn's error reply: `{status, ...extra, message}` with the Rest.li protocol header. */
export type LinkedInError = (status: number, message: string, extra?: Record<string, unknown>) => SimReply;
