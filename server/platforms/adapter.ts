/**
 * The one interface every network adapter implements. Adapters speak the network's real wire
 * protocol (docs/decisions.md §19) against base URLs from configuration, and normalise:
 * - ids: `PostRef.id` is the id later calls need (X tweet id, Bluesky at-uri with its cid,
 *   Mastodon status id, Threads media id (not the container id), LinkedIn share URN);
 * - URLs: `PostRef.url` is the public web URL of the post;
 * - errors: every failure is a `PlatformError` (errors.ts) with kind token_expired,
 *   rate_limited (with `resetAt` from the network's headers), transient, permanent or
 *   ambiguous (a write that may have been committed), and a message a person can act on.
 * Adapters hold no state between calls: credentials come in, refreshed credentials go out.
 */
import type { NetworkConfig, Platform } from '../core/config.js';
import type { NetworkQuota } from './quotas.js';
import type { PostOptionsValue } from '../../text/post-options.js';
import type { DeleteOutcome, MetricsRead, PartRef } from './after-publish.js';

export type RefreshMode = 'any_time' | 'before_expiry' | 'none';

/** Secrets for one account, kept only in the secret store. */
export interface Credentials {
  accessToken: string;
  refreshToken?: string;
  /** Epoch ms when the access token expires, if the network says. */
  expiresAt?: number;
  /** Network-specific secrets (Bluesky app password, Mastodon app client secret, ...). */
  extra?: Record<string, string>;
  /** The scopes the network granted, where its token answer lists them (LinkedIn). */
  scopes?: string[];
}

/** What an adapter knows about the account it acts for (never secrets). */
export interface AccountInfo {
  id: string;
  platform: Platform;
  platformUserId: string;
  username: string;
  /** Mastodon instance or Bluesky PDS base URL. */
  serverUrl?: string | null;
  meta: Record<string, unknown>;
}

export interface Identity {
  platformUserId: string;
  username: string;
  displayName: string;
  avatar: string;
  followersCount: number;
  followingCount: number;
  serverUrl?: string;
  /** Non-secret facts to keep on the account (instance limits, person URN, ...). */
  meta?: Record<string, unknown>;
}

export interface MediaItem {
  /** Absolute path of the file on disk. */
  path: string;
  mime: string;
  size: number;
  kind: 'image' | 'gif' | 'video' | 'document';
  width?: number;
  height?: number;
  altText: string;
  /** Shown by LinkedIn for documents and videos. */
  title?: string;
  /** WebVTT captions of a video, one per language. */
  captions?: { lang: string; vtt: string }[];
  /** A public http(s) URL of the same bytes, for networks that fetch media themselves (Threads). */
  publicUrl?: string;
}

/** A file of this computer copied where a network can fetch it (the media relay). */
export interface RelayedMedia {
  key: string;
  /** The address the network is given (presigned GET, or the bucket's public address). */
  url: string;
}

/**
 * The media relay (the user's S3-compatible bucket), for networks that only take media by URL
 * (Threads). The adapter uploads each file just before it needs it and removes every object it
 * uploaded once the network has fetched it or the post ends, succeeded or not.
 */
export interface MediaRelay {
  upload(item: MediaItem, signal?: AbortSignal): Promise<RelayedMedia>;
  /** Never throws: a failed delete is logged, not a failed post. */
  remove(media: RelayedMedia): Promise<void>;
}

/** A published post as later calls need it. */
export interface PostRef {
  id: string;
  /** Bluesky's record cid (replies and quotes need uri + cid). */
  cid?: string;
  url: string;
}

export interface PostOptions {
  /**
   * The draft's post options (docs/decisions.md §11). Each adapter maps what its network takes in
   * its own `options.ts`; a poll, a quote and a gate go with the first post of a thread only.
   */
  post?: PostOptionsValue | null;
  communityId?: string;
  replyControl?: 'everyone' | 'accounts_you_follow' | 'mentioned_only';
  visibility?: 'PUBLIC' | 'CONNECTIONS' | 'LOGGED_IN';
  langs?: string[];
}

/**
 * A link card Herald built from the linked page (the page's title and description, and its image's
 * bytes, fetched through the address policy). Only adapters with `linkCards` get one, and only on a
 * post without media: images win over a card.
 */
export interface PostLinkCard {
  url: string;
  title: string;
  description: string;
  thumb?: { bytes: Buffer; mime: string };
}

export interface PostInput {
  text: string;
  media: MediaItem[];
  /** The card to show under this post (Bluesky: an external embed; LinkedIn: an article). */
  linkCard?: PostLinkCard;
  /** The post this one answers (the previous post of a thread). */
  replyTo?: PostRef;
  /** The first post of the thread (Bluesky's reply.root). */
  root?: PostRef;
  quote?: PostRef;
  options: PostOptions;
  /** Stable for this logical post across retries (Mastodon's Idempotency-Key). */
  idempotencyKey: string;
}

/** A post the network holds to publish itself at `scheduledAt` (Mastodon's ScheduledStatus). */
export interface NetworkScheduled {
  id: string;
  /** Epoch ms the network will publish it at. */
  scheduledAt: number;
}

/** Everything an adapter call gets. */
export interface CallContext {
  account: AccountInfo;
  credentials: Credentials;
  network: NetworkConfig;
  /** Aborts long calls (uploads, processing waits). */
  signal?: AbortSignal;
  /** The media relay, when one is set up (Settings → Media relay). */
  mediaRelay?: MediaRelay;
  /** Told while the network processes a video (progress: `waitingFor: "processing"`). */
  onProcessing?: (processing: boolean) => void;
}

/** The app's own client credentials at the network (configured, or registered per Mastodon instance). */
export interface AppCredentials {
  clientId: string;
  clientSecret?: string;
}

export interface AuthorizeRequest {
  state: string;
  codeChallenge: string;
  redirectUri: string;
  network: NetworkConfig;
  /** Mastodon: the instance chosen by the user. */
  serverUrl?: string;
  /** Absent only for Mastodon before the app is registered on that instance. */
  app?: AppCredentials;
}

export interface OAuthAdapter {
  /** Builds the authorize URL; Mastodon registers the app first and returns it to be cached. */
  authorizeUrl(req: AuthorizeRequest): Promise<{ url: string; app?: AppCredentials }>;
  /** Exchanges the callback's code for credentials (long-lived where the network has them). */
  exchangeCode(req: {
    code: string;
    codeVerifier: string;
    redirectUri: string;
    network: NetworkConfig;
    serverUrl?: string;
    app: AppCredentials;
  }): Promise<Credentials>;
  /**
   * Checks the app's client id and secret (in `network`) without anyone signing in: the Test
   * button of Settings → Networks. A token request with a made-up code or token, which the
   * network refuses one way for a wrong client and another way for a right one. Never throws
   * for a refusal; `message` says what is wrong and where to fix it.
   */
  checkApp?(req: { network: NetworkConfig; redirectUri: string }): Promise<AppCheck>;
}

/** What a credential check found. */
export interface AppCheck {
  ok: boolean;
  message: string;
}

/**
 * One network. `publishPost`, `identify` and `findRecentPost` every network has; the optional
 * members are capabilities only some networks offer. Services get the adapter from
 * `Deps.platforms` (registry.ts) and check for the member, never import an adapter by name.
 */
export interface PlatformAdapter {
  readonly platform: Platform;
  /**
   * True when repeating a write with the same `idempotencyKey` cannot create a second post
   * (Mastodon's Idempotency-Key): an unanswered post is then simply sent again.
   */
  readonly idempotentWrites?: boolean;
  /**
   * True when the network shows a link card only if the client sends one (Bluesky, LinkedIn):
   * Herald then passes `PostInput.linkCard`. Networks that build cards themselves from the first
   * link (X, Mastodon, Threads) leave it unset and get none.
   */
  readonly linkCards?: boolean;
  /** Present for networks connected through OAuth (all but Bluesky). */
  readonly oauth?: OAuthAdapter;
  /** Bluesky: signs in with an identifier and app password at `service` (a PDS or entryway). */
  passwordLogin?(req: {
    identifier: string;
    password: string;
    service: string;
    network: NetworkConfig;
  }): Promise<{ credentials: Credentials; identity: Identity }>;
  /** Who the credentials belong to, with follower counts. */
  identify(ctx: Omit<CallContext, 'account'> & { account?: AccountInfo; serverUrl?: string }): Promise<Identity>;
  /** New credentials from the refresh token (or a new session); throws token_expired when the network refuses. */
  refresh?(ctx: CallContext): Promise<Credentials>;
  /**
   * How `refresh` can renew these credentials: `any_time` (a refresh token or a stored app
   * password renews even an expired token), `before_expiry` (the token itself is renewed while
   * it is still valid, Threads' long-lived tokens), `none`. Without it: `any_time` when the
   * credentials carry a refresh token and `refresh` exists, else `none`.
   */
  refreshMode?(credentials: Credentials): RefreshMode;
  /** Publishes one post (uploading its media first). */
  publishPost(ctx: CallContext, post: PostInput): Promise<PostRef>;
  /**
   * Looks for a post this account made recently with this text (and parent), to settle an
   * ambiguous failure. Returns null only when the network says no such post exists; throws a
   * PlatformError when it cannot say (no lookup API, lookup failed), so the post is held for
   * the user to confirm instead of being sent twice.
   */
  findRecentPost(
    ctx: CallContext,
    query: { text: string; replyTo?: PostRef; since: number; idempotencyKey: string },
  ): Promise<PostRef | null>;
  /**
   * The network's own count against its posting caps (Threads' threads_publishing_limit), which
   * also counts posts made outside Herald. The quota gate asks it before a scheduled post fires;
   * a network without such an endpoint is counted from Herald's own records (quotas.ts).
   */
  publishingQuota?(ctx: CallContext): Promise<NetworkQuota[]>;
  /**
   * Scheduling on the network (Mastodon's scheduled statuses): the network itself publishes
   * `post` at `at`, also while Herald is closed or the machine sleeps. One post only (a reply
   * cannot name a post that does not exist yet). Throws a PlatformError when the network refuses
   * (too soon for it, over its limits, no such API); the caller then sends the post itself. After
   * `at`, `findRecentPost` finds the published post.
   */
  schedulePost?(ctx: CallContext, post: PostInput, at: number): Promise<NetworkScheduled>;
  /**
   * Moves a post scheduled on the network to `at`; a PlatformError with status 404 when the network no longer holds it.
   */
  reschedulePost?(ctx: CallContext, id: string, at: number): Promise<NetworkScheduled>;
  /** Withdraws a post scheduled on the network; resolves too when the network no longer holds it. */
  unschedulePost?(ctx: CallContext, id: string): Promise<void>;
  /** Follows another account (X's followOnPlatform). */
  follow?(ctx: CallContext, targetUserId: string): Promise<void>;
  /**
   * Takes a published post (or a later part of its thread) down. Resolves `gone` when the network
   * says it no longer holds it (deleted elsewhere): that is an outcome, not a failure.
   */
  deletePost?(ctx: CallContext, ref: PartRef): Promise<DeleteOutcome>;
  /** Replaces a published post's text on the network (throws PlatformError status 404 when it is gone). */
  editPost?(ctx: CallContext, ref: PartRef, text: string): Promise<void>;
  /** Without `editPost`: what the network allows instead, for the NOT_SUPPORTED answer. */
  readonly editNote?: string;
  /**
   * The counts of these posts, by `PostRef.id`: `gone` for a post the network no longer holds.
   * A post missing from the answer was not read (try later). At most `metricsBatch` refs a call.
   */
  readMetrics?(ctx: CallContext, refs: PostRef[]): Promise<MetricsRead>;
  /** How many posts one `readMetrics` call takes (Bluesky's getPosts: 25); default 1. */
  readonly metricsBatch?: number;
  /** Per-post price of a read, in USD, when the network charges for reads (X). */
  readonly metricsReadPriceKey?: 'xReadPriceUsd';
}
