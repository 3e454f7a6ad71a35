/**
 * Settings → Media relay (docs/decisions.md §11 "Media of every kind"): the install's one
 * S3-compatible bucket, set up by the owner like the network apps. Everything is kept as one
 * entry of the secret store (`media-relay`), so the secret access key never reaches SQLite, logs
 * or backups and is never answered back; a PUT without `secretAccessKey` keeps the stored one.
 * Publishing asks `relay()` at call time, so a change applies to the next post.
 */
import path from 'node:path';
import { HeraldError } from '../../core/errors.js';
import { GuardedFetcher } from '../../net/guarded-fetch.js';
import { S3Relay, type S3RelayConfig } from '../../net/media-relay.js';
import type { MediaItem, MediaRelay, RelayedMedia } from '../../platforms/adapter.js';
import type { Deps } from '../deps.js';
import type { UsersService } from '../users/users.service.js';

const SECRET = 'media-relay';
export const RELAY_TTL_DEFAULT = 3600;

export interface MediaRelayInput {
  kind: 's3';
  endpoint: string;
  region: string;
  bucket: string;
  prefix?: string;
  accessKeyId: string;
  secretAccessKey?: string;
  publicBaseUrl?: string | null;
  urlTtlSeconds?: number;
}

export type MediaRelayView = Omit<S3RelayConfig, 'secretAccessKey' | 'publicBaseUrl'> & {
  kind: 's3';
  publicBaseUrl: string | null;
};

function invalid(field: string, message: string): HeraldError {
  return new HeraldError('INVALID_INPUT', message, { details: [{ path: `body.${field}`, message }] });
}

/** An http(s) URL without credentials, query or fragment, as its origin plus path (no trailing slash). */
function baseUrl(field: string, raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw invalid(field, `${field} is not an absolute URL (e.g. https://s3.eu-central-1.amazonaws.com)`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw invalid(field, `${field} must be an http(s) URL`);
  if (url.username || url.password || url.search || url.hash)
    throw invalid(field, `${field} must not have credentials, a query or a fragment`);
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}

// S3's bucket naming rules (3-63 lowercase letters, digits, dots and hyphens); R2 and B2 follow them.
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

export class MediaRelayService {
  private stored: S3RelayConfig | null = null;
  /** The relay's address guard (loopback and private pass: net/media-relay.ts); replaceable in tests. */
  guard = new GuardedFetcher({ allowPrivate: true });

  constructor(
    private readonly deps: Deps,
    private readonly users: UsersService,
  ) {}

  /** Reads the stored relay once at start (and again once an encrypted store is unlocked). */
  async load(): Promise<void> {
    if (this.deps.secrets.locked) return;
    try {
      const raw = await this.deps.secrets.get(SECRET);
      this.stored = raw ? (JSON.parse(raw) as S3RelayConfig) : null;
    } catch (err) {
      this.deps.log.warn(`Herald could not read the saved media relay: ${(err as Error).message}`);
    }
  }

  /** Whether Threads can be given uploaded media. */
  ready(): boolean {
    return this.stored !== null;
  }

  view(): MediaRelayView | null {
    if (!this.stored) return null;
    const { secretAccessKey: _secret, publicBaseUrl, ...rest } = this.stored;
    return { kind: 's3', ...rest, publicBaseUrl: publicBaseUrl ?? null };
  }

  private ownerOnly(userId: string): void {
    if (!this.users.isOwner(userId))
      throw new HeraldError('UNAUTHORIZED', 'Only the owner of this install can change or test the media relay');
  }

  async set(userId: string, input: MediaRelayInput): Promise<MediaRelayView> {
    this.ownerOnly(userId);
    const endpoint = baseUrl('endpoint', input.endpoint);
    const region = input.region.trim();
    if (!/^[a-z0-9-]{1,40}$/i.test(region))
      throw invalid('region', 'region is a name like us-east-1 or auto (Cloudflare R2); MinIO takes us-east-1');
    const bucket = input.bucket.trim();
    if (!BUCKET.test(bucket))
      throw invalid('bucket', 'bucket is 3-63 lowercase letters, digits, dots and hyphens, as the storage shows it');
    let prefix = (input.prefix ?? '').trim().replace(/^\/+/, '');
    if (prefix && !prefix.endsWith('/')) prefix += '/';
    if (/\.\.|\/\//.test(prefix) || prefix.length > 200)
      throw invalid('prefix', 'prefix is a folder name such as herald/ (no "..", no empty folders)');
    const accessKeyId = input.accessKeyId.trim();
    if (!accessKeyId || /\s/.test(accessKeyId))
      throw invalid('accessKeyId', 'accessKeyId is empty or has spaces: copy it again from the storage');
    const secretAccessKey = input.secretAccessKey?.trim() || this.stored?.secretAccessKey;
    if (!secretAccessKey)
      throw invalid('secretAccessKey', 'secretAccessKey is empty: paste the secret key the storage gave with the id');
    if (/\s/.test(secretAccessKey))
      throw invalid('secretAccessKey', 'secretAccessKey has spaces or line breaks: copy it again');
    const publicBaseUrl = input.publicBaseUrl?.trim() ? baseUrl('publicBaseUrl', input.publicBaseUrl) : undefined;
    try {
      await this.guard.check(endpoint);
    } catch (err) {
      throw invalid('endpoint', (err as Error).message);
    }
    if (this.deps.secrets.kind === 'unavailable')
      throw new HeraldError(
        'INVALID_INPUT',
        `Herald cannot keep the secret: ${this.deps.secrets.problem ?? 'no secret store is available'}`,
      );
    const config: S3RelayConfig = {
      endpoint,
      region,
      bucket,
      prefix,
      accessKeyId,
      secretAccessKey,
      ...(publicBaseUrl ? { publicBaseUrl } : {}),
      urlTtlSeconds: input.urlTtlSeconds ?? RELAY_TTL_DEFAULT,
    };
    await this.deps.secrets.set(SECRET, JSON.stringify(config));
    this.stored = config;
    return this.view()!;
  }

  async remove(userId: string): Promise<void> {
    this.ownerOnly(userId);
    await this.deps.secrets.delete(SECRET);
    this.stored = null;
  }

  /** The Test button: put, fetch back and delete a small object; the message names a failed step. */
  async test(userId: string): Promise<{ ok: boolean; message: string }> {
    this.ownerOnly(userId);
    if (!this.stored)
      return { ok: false, message: 'No media relay is set up: save its endpoint, bucket and keys first' };
    const s3 = new S3Relay(this.stored, this.guard);
    return s3.selfTest(`${this.stored.prefix}herald-test-${this.deps.ids.uuid()}.txt`);
  }

  /** The relay publishing gives the adapters, or undefined when none is set up. */
  relay(): MediaRelay | undefined {
    if (!this.stored) return undefined;
    const s3 = new S3Relay(this.stored, this.guard);
    const prefix = this.stored.prefix;
    const log = this.deps.log;
    const ids = this.deps.ids;
    return {
      async upload(item: MediaItem, signal?: AbortSignal): Promise<RelayedMedia> {
        // A fresh unguessable name per upload: a presigned URL names only this one object.
        const key = `${prefix}${ids.uuid()}${path.extname(item.path).toLowerCase()}`;
        await s3.putFile(key, { path: item.path, size: item.size, mime: item.mime }, signal);
        return { key, url: await s3.fetchUrl(key) };
      },
      async remove(media: RelayedMedia): Promise<void> {
        try {
          await s3.delete(media.key);
        } catch (err) {
          log.warn(`Herald could not delete ${media.key} from the media relay: ${(err as Error).message}`);
        }
      },
    };
  }
}
