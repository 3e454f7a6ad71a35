/**
 * Each Mastodon instance sets its own limits (docs/decisions.md §19.3). They are read from
 * GET /api/v2/instance (no auth; GET /api/v1/instance on servers older than 4.0), cached per
 * instance for an hour, and kept on the account's meta so drafts can count per instance.
 */
import { PlatformError } from '../errors.js';
import { joinUrl } from '../http.js';
import { mastoCall } from './http.js';

export interface InstanceLimits {
  max_characters: number;
  characters_reserved_per_url: number;
  max_media_attachments: number;
  description_limit: number;
  /** Bytes; `configuration.media_attachments.video_size_limit`. */
  video_size_limit: number;
  /** `api_versions.mastodon`; 7 and up take quoted_status_id. */
  api_version: number;
  /** `configuration.polls` (expirations in seconds), read by the drafts' option checks from the account's meta. */
  poll_max_options: number;
  poll_max_characters_per_option: number;
  poll_min_expiration: number;
  poll_max_expiration: number;
}

export const DEFAULT_LIMITS: InstanceLimits = {
  max_characters: 500,
  characters_reserved_per_url: 23,
  max_media_attachments: 4,
  description_limit: 1500,
  // Mastodon's own default (99 MiB) when the instance does not say.
  video_size_limit: 99 * 1024 * 1024,
  api_version: 0,
  poll_max_options: 4,
  poll_max_characters_per_option: 50,
  poll_min_expiration: 300,
  poll_max_expiration: 2_629_746,
};

const TTL_MS = 60 * 60_000;
const cache = new Map<string, { at: number; limits: InstanceLimits }>();

interface InstanceDoc {
  configuration?: {
    statuses?: { max_characters?: number; max_media_attachments?: number; characters_reserved_per_url?: number };
    media_attachments?: { description_limit?: number; video_size_limit?: number };
    polls?: {
      max_options?: number;
      max_characters_per_option?: number;
      min_expiration?: number;
      max_expiration?: number;
    };
  };
  api_versions?: { mastodon?: number };
  max_toot_chars?: number;
}

const num = (v: unknown, fallback: number) => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : fallback);

function limitsOf(doc: InstanceDoc): InstanceLimits {
  const s = doc.configuration?.statuses ?? {};
  return {
    max_characters: num(s.max_characters ?? doc.max_toot_chars, DEFAULT_LIMITS.max_characters),
    characters_reserved_per_url: num(s.characters_reserved_per_url, DEFAULT_LIMITS.characters_reserved_per_url),
    max_media_attachments: num(s.max_media_attachments, DEFAULT_LIMITS.max_media_attachments),
    description_limit: num(doc.configuration?.media_attachments?.description_limit, DEFAULT_LIMITS.description_limit),
    video_size_limit: num(doc.configuration?.media_attachments?.video_size_limit, DEFAULT_LIMITS.video_size_limit),
    api_version: num(doc.api_versions?.mastodon, 0),
    ...pollsOf(doc.configuration?.polls ?? {}),
  };
}

function pollsOf(p: NonNullable<NonNullable<InstanceDoc['configuration']>['polls']>) {
  const d = DEFAULT_LIMITS;
  return {
    poll_max_options: num(p.max_options, d.poll_max_options),
    poll_max_characters_per_option: num(p.max_characters_per_option, d.poll_max_characters_per_option),
    poll_min_expiration: num(p.min_expiration, d.poll_min_expiration),
    poll_max_expiration: num(p.max_expiration, d.poll_max_expiration),
  };
}

/** The instance's limits, from the cache when fresh. */
export async function instanceLimits(serverUrl: string, signal?: AbortSignal): Promise<InstanceLimits> {
  const hit = cache.get(serverUrl);
  if (hit && Date.now() - hit.at < TTL_MS) return hit.limits;
  let doc: InstanceDoc;
  try {
    doc = (
      await mastoCall<InstanceDoc>(
        joinUrl(serverUrl, '/api/v2/instance'),
        { headers: { accept: 'application/json' } },
        { what: 'read the instance limits', signal },
      )
    ).body;
  } catch (err) {
    if (!(err instanceof PlatformError) || err.status !== 404) throw err;
    doc = (
      await mastoCall<InstanceDoc>(
        joinUrl(serverUrl, '/api/v1/instance'),
        { headers: { accept: 'application/json' } },
        { what: 'read the instance limits', signal },
      )
    ).body;
  }
  const limits = limitsOf(typeof doc === 'object' && doc ? doc : {});
  cache.set(serverUrl, { at: Date.now(), limits });
  return limits;
}

/** Limits kept on an account's meta by identify; defaults where they are missing. */
export function limitsFromMeta(meta: Record<string, unknown>): InstanceLimits {
  return {
    max_characters: num(meta.max_characters, DEFAULT_LIMITS.max_characters),
    characters_reserved_per_url: num(meta.characters_reserved_per_url, DEFAULT_LIMITS.characters_reserved_per_url),
    max_media_attachments: num(meta.max_media_attachments, DEFAULT_LIMITS.max_media_attachments),
    description_limit: num(meta.description_limit, DEFAULT_LIMITS.description_limit),
    video_size_limit: num(meta.video_size_limit, DEFAULT_LIMITS.video_size_limit),
    api_version: num(meta.api_version, 0),
    ...pollsOf({
      max_options: meta.poll_max_options as number,
      max_characters_per_option: meta.poll_max_characters_per_option as number,
      min_expiration: meta.poll_min_expiration as number,
      max_expiration: meta.poll_max_expiration as number,
    }),
  };
}
