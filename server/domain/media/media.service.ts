/**
 * Media items stored by this server. Turning user-given media URLs into post media: this
 * server's own `/api/v1/media/<id>` URLs are read locally; Threads gets public URLs as they are
 * (it fetches media itself), and never this server's loopback URLs.
 */
import { and, eq } from 'drizzle-orm';
import type { Platform } from '../../config.js';
import type { Deps } from '../../context.js';
import { media } from '../../db/schema.js';
import { HeraldError } from '../../errors.js';
import type { MediaRef } from '../publishing/runner.js';

export class MediaService {
  constructor(private readonly deps: Deps) {}

  /** The media id when `url` is one of this server's media URLs. */
  localMediaId(url: URL): string | undefined {
    const m = /^\/api\/v1\/media\/([A-Za-z0-9_-]{8,64})$/.exec(url.pathname);
    if (!m) return undefined;
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const loopback = host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
    return loopback && url.port === new URL(this.deps.runtime.baseUrl).port ? m[1] : undefined;
  }

  refsFromUrls(userId: string, platform: Platform, urls: string[]): MediaRef[] {
    return urls.map((raw, i) => {
      const url = new URL(raw);
      const path = `mediaUrls[${i}]`;
      const localId = this.localMediaId(url);
      if (localId) {
        if (platform === 'threadblog') {
          throw new HeraldError('INVALID_INPUT', 'Threads fetches media from a public URL itself, so media stored in Herald cannot be sent to Threads by URL; use a public https URL', { details: [{ path, message: 'local media cannot go to Threads by URL' }] });
        }
        const row = this.deps.db.select().from(media).where(and(eq(media.id, localId), eq(media.userId, userId))).get();
        if (!row) throw new HeraldError('NOT_FOUND', `Media ${localId} not found`);
        return { mediaId: row.id };
      }
      if (url.protocol !== 'https:' && url.protocol !== 'http:') {
        throw new HeraldError('INVALID_INPUT', 'Media URLs must be http(s)', { details: [{ path, message: 'http(s) only' }] });
      }
      if (platform === 'threadblog') return { url: url.href };
      throw new HeraldError('INVALID_INPUT', 'Only media uploaded to Herald (POST /microblog/media/upload) can be attached here; upload the file first and pass its URL', { details: [{ path, message: 'remote URL' }] });
    });
  }
}
