/**
 * The publishing core's shared types, in one module that imports no code of its own folder: the
 * plan, the charge, the sender, the runner and the scheduled runner all speak these, so none of
 * them imports another for a type (which made plan → runner → x-spend → plan an import circle).
 */
import type { Platform } from '../../core/config.js';
import type { PublicationStatus } from '../../db/repos/outbox.repo.js';
import type { AccountRow } from '../../db/repos/publish-inputs.repo.js';
import type { MediaRelay, PostLinkCard, PostOptions, PostRef } from '../../platforms/adapter.js';
import type { HandedOff } from './hand-off-confirm.js';
import type { PostOptionsValue } from '../../../text/post-options.js';

/** A post's media: this server's media item, or (Threads only) a public URL the network fetches. */
export interface MediaRef {
  mediaId?: string;
  url?: string;
  altText?: string;
  /** The media row's type, filled in when the publish is planned (absent: the item is gone). */
  kind?: 'image' | 'gif' | 'video' | 'document';
  /** The media row's size in bytes, filled in with `kind`. */
  size?: number;
  /** The media row's own alt text, filled in with `kind` (the post's `altText` wins over it). */
  rowAltText?: string;
  /** A video's length, filled in with `kind`. */
  durationMs?: number | null;
}

export interface PublicationOptions extends PostOptions {
  quote?: PostRef;
  /** The link card chosen when the publish was planned: the page and the post (position) it goes under. */
  linkCard?: { url: string; position: number };
  /** Handed off to the network, which publishes it itself: the run confirms it (hand-off-confirm.ts). */
  handedOff?: HandedOff;
}

/** A link card's facts as read from its page. */
export interface LinkCardFacts {
  title: string;
  description: string;
  imageUrl: string | null;
  siteName: string | null;
}

/** Where the runner gets a card's facts and thumbnail (LinkCardsService.forPublish). */
/** The media relay as publishing sees it (domain/media-relay): whether one is set up, and the relay itself. */
export interface RelaySource {
  ready(): boolean;
  relay(): MediaRelay | undefined;
}

export interface CardSource {
  forPublish(url: string): Promise<PostLinkCard | null>;
  /** The facts already read for `url` (dry runs show them; they never fetch). */
  cached(url: string): LinkCardFacts | null | undefined;
}

export interface PartPlan {
  text: string;
  media: MediaRef[];
}

export interface DraftForPublishing {
  id: string;
  userId: string;
  title: string;
  status: string;
  socialSetId: string | null;
  selectedAccountIds: string[];
  posts: { plainText: string; media: MediaRef[] }[];
  overrides: Partial<Record<Platform, string>>;
  /** BCP 47, or null for the setting defaultLanguage. */
  language: string | null;
  /** null: the first link of the first post; false: none; {url}: that page. */
  linkCard: false | { url: string } | null;
  /** Post options (docs/decisions.md §11); null: none. */
  options: PostOptionsValue | null;
}

export interface TargetRequest {
  accountId: string;
  platform?: Platform;
  communityId?: string;
}

export interface TargetResult {
  accountId: string;
  platform: Platform;
  success: boolean;
  skipped?: boolean;
  status: PublicationStatus;
  data?: Record<string, unknown>;
  error?: { code: string; message: string };
  /** Set on failures worth another attempt later (network trouble, 5xx, 429). */
  retry?: { after?: number };
  /** Refused for a network's own quota before anything was sent: a scheduled post waits for it. */
  hold?: { until: number; reason: string };
}

export interface PlannedTarget {
  account: AccountRow;
  parts: PartPlan[];
  options: PublicationOptions;
}

export interface PublishRequest {
  draftId: string;
  accountIds?: string[];
  targetAccounts?: TargetRequest[];
  jobId?: string;
  community?: { id: string; name?: string; description?: string };
  force?: boolean;
  options?: PublicationOptions;
  origin?: 'now' | 'schedule';
  /** The first post's text instead of the draft's (a scheduled evergreen variant). */
  firstText?: string;
}

/** Media a direct publish names by URL, and how to turn them into references (MediaService.refsFromUrls). */
export interface MediaByUrl {
  urls: string[];
  /** The body field that gave the URLs, for error details (default mediaUrls). */
  field?: string;
  /** The URLs as media references without fetching any (this server's media resolved to their items). */
  peek?: (urls: string[]) => Promise<MediaRef[]>;
  load: (urls: string[]) => Promise<MediaRef[]>;
}

export interface PublishOutcome {
  success: boolean;
  jobId: string;
  draftId: string;
  results: TargetResult[];
  summary: { total: number; succeeded: number; failed: number };
  /** Went ahead, but over X's spend cap set to warn. */
  warnings?: string[];
}

/** A publish begun (planned and charged), not yet sent: see PublishService.begin(). */
export interface Started {
  userId: string;
  req: PublishRequest;
  jobId: string;
  draftId: string;
  skipped: TargetResult[];
  toRun: { target: { account: AccountRow }; pubId: string }[];
  warnings: string[];
}

export interface DirectPublish {
  platform: Platform;
  accountId: string;
  texts: string[];
  media: MediaRef[];
  options: PublicationOptions;
}

/** A draft publish's plan (PublishService.plan): the draft, and each target's parts and options. */
export interface Planned {
  draft: DraftForPublishing;
  targets: PlannedTarget[];
}
