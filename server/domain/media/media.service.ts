/**
 * Media items stored by this server: uploads (streamed in by the multer engine), alt text,
 * removal, serving, and turning user-given media URLs into post media. This server's own
 * `/api/v1/media/<id>` URLs are read locally; other http(s) URLs are fetched through the guarded
 * fetcher into the media store (same sniffing and caps as uploads), except for Threads, which
 * fetches public URLs itself and so gets them as they are (and never this server's loopback URLs).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Platform } from '../../core/config.js';
import { nowIso } from '../../core/clock.js';
import { type Deps } from '../deps.js';
import type { MediaRepo, MediaRow } from '../../db/repos/media.repo.js';
import { HeraldError, notFound } from '../../core/errors.js';
import type { MediaRef } from '../publishing/model.js';
import { blockedReason, ipLiteral } from '../../net/address-policy.js';
import { GuardedFetcher, UrlRefused } from '../../net/guarded-fetch.js';
import { mediaPath, storeStream, type StoredMedia } from './media-store.js';
import { MAX_MEDIA_BYTES } from './media-types.js';
import { checkCaptions, parseCaptions, type Caption } from './captions.js';

export type { MediaRow };

export interface MediaView {
  mediaId: string;
  url: string;
  type: string;
  altText: string;
  width: number | null;
  height: number | null;
  size: number;
  title: string;
  captions: Caption[];
  durationMs: number | null;
  pages: number | null;
}

/** LinkedIn's own cap on a media title. */
export const TITLE_MAX = 400;

export class MediaService {
  /** The fetcher for remote media URLs; replaceable (e.g. with an injected resolver in tests). */
  fetcher: GuardedFetcher;

  constructor(
    private readonly deps: Deps,
    private readonly repo: MediaRepo,
    fetcher?: GuardedFetcher,
  ) {
    this.fetcher = fetcher ?? new GuardedFetcher({ allowPrivate: deps.config.allowPrivateAddresses });
  }

  get dir(): string {
    return path.join(this.deps.config.dataDir, 'media');
  }

  /** A fresh media id: 128 bits or more of randomness, URL-safe. */
  newId(): string {
    return this.deps.ids.token(16);
  }

  /** `origin`: the loopback address the caller reached Herald at, so a page opened as localhost gets its own. */
  url(id: string, origin = this.deps.runtime.baseUrl): string {
    return `${origin}/api/v1/media/${id}`;
  }

  view(row: MediaRow): MediaView {
    return {
      mediaId: row.id,
      url: this.url(row.id),
      type: row.type,
      altText: row.altText,
      width: row.width,
      height: row.height,
      size: row.size,
      title: row.title,
      captions: parseCaptions(row.captions),
      durationMs: row.durationMs,
      pages: row.pages,
    };
  }

  /** Records files already in the media folder; all or nothing (files are removed on failure). */
  saveStored(userId: string, stored: StoredMedia[], titles: string[] = []): MediaRow[] {
    const now = nowIso(this.deps.clock);
    try {
      const rows = stored.map((f, i): MediaRow => ({
        id: path.parse(f.fileName).name,
        userId,
        fileName: f.fileName,
        type: f.kind,
        mime: f.mime,
        size: f.size,
        width: f.width ?? null,
        height: f.height ?? null,
        altText: '',
        createdAt: now,
        title: (titles[i] ?? f.originalName ?? '').slice(0, TITLE_MAX),
        captions: '[]',
        durationMs: f.durationMs ?? null,
        pages: f.pages ?? null,
      }));
      this.repo.insertAll(rows);
      return rows;
    } catch (err) {
      for (const f of stored) fs.rmSync(f.path, { force: true });
      throw err;
    }
  }

  private own(userId: string, mediaId: string): MediaRow {
    const row = this.repo.own(userId, mediaId);
    if (!row) throw notFound('Media');
    return row;
  }

  updateAltText(userId: string, mediaId: string, altText: string): MediaView {
    this.own(userId, mediaId);
    this.repo.setAltText(userId, mediaId, altText);
    return this.view(this.own(userId, mediaId));
  }

  /** PUT /microblog/media/:id: the title and/or the alt text. */
  update(userId: string, mediaId: string, change: { title?: string; altText?: string }): MediaView {
    this.own(userId, mediaId);
    if (change.title !== undefined) this.repo.setTitle(userId, mediaId, change.title);
    if (change.altText !== undefined) this.repo.setAltText(userId, mediaId, change.altText);
    return this.view(this.own(userId, mediaId));
  }

  setCaptions(userId: string, mediaId: string, captions: Caption[]): MediaView {
    this.own(userId, mediaId);
    checkCaptions(captions);
    this.repo.setCaptions(userId, mediaId, JSON.stringify(captions));
    return this.view(this.own(userId, mediaId));
  }

  remove(userId: string, mediaId: string): void {
    const row = this.own(userId, mediaId);
    this.repo.delete(row.id);
    fs.rmSync(mediaPath(this.dir, row.fileName), { force: true });
  }

  /** The stored file of a media item, for serving; anyone holding the id may read it. */
  async open(mediaId: string): Promise<{ row: MediaRow; file: fs.promises.FileHandle }> {
    const row = this.repo.byId(mediaId);
    if (!row) throw notFound('Media');
    try {
      return { row, file: await fs.promises.open(mediaPath(this.dir, row.fileName), 'r') };
    } catch {
      throw notFound('Media');
    }
  }

  /**
   * Removes files in the media folder that no media row names and that were last written before
   * `writtenBefore` (wall-clock ms, as file times are): what a kill during an upload or a URL
   * fetch leaves (a file is written whole, then its row is inserted). A file a row names is never
   * touched, and the time bound keeps a file an upload is still writing (its time moves with each
   * chunk). Answers how many were removed.
   */
  removeOrphans(writtenBefore: number): number {
    let names: fs.Dirent[];
    try {
      names = fs.readdirSync(this.dir, { withFileTypes: true });
    } catch {
      return 0; // no media folder yet
    }
    const known = new Set(this.repo.fileNames());
    let removed = 0;
    for (const d of names) {
      if (!d.isFile() || known.has(d.name)) continue;
      const file = path.join(this.dir, d.name);
      try {
        if (fs.statSync(file).mtimeMs >= writtenBefore) continue;
        fs.rmSync(file, { force: true });
        removed += 1;
      } catch {
        /* removed meanwhile */
      }
    }
    return removed;
  }

  /** Fetches a remote URL through the guard into the media store; answers the new row. */
  async storeFromUrl(userId: string, url: string): Promise<MediaRow> {
    const store = (body: Parameters<typeof storeStream>[0]) => storeStream(body, { dir: this.dir, id: this.newId() });
    const stored = await this.fetcher.fetch(url, store, { maxLength: MAX_MEDIA_BYTES });
    return this.saveStored(userId, [stored])[0];
  }

  /** The media id when `url` is one of this server's media URLs. */
  localMediaId(url: URL): string | undefined {
    const m = /^\/api\/v1\/media\/([A-Za-z0-9_-]{8,64})$/.exec(url.pathname);
    if (!m) return undefined;
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const loopback = host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
    return loopback && url.port === new URL(this.deps.runtime.baseUrl).port ? m[1] : undefined;
  }

  /**
   * The media a request names by URL, checked and (unless `fetch: false`) fetched into the store.
   * A dry run passes `fetch: false`: this server's media are still resolved to their ids, and a
   * remote URL that a real publish would fetch stays `{url}` (its kind guessed from its name).
   */
  async refsFromUrls(
    userId: string,
    platform: Platform,
    urls: string[],
    opts: { fetch?: boolean } = {},
  ): Promise<MediaRef[]> {
    const refs: MediaRef[] = [];
    const fetched: MediaRow[] = [];
    try {
      for (const [i, raw] of urls.entries())
        refs.push(await this.refFromUrl(userId, platform, raw, `mediaUrls[${i}]`, fetched, opts.fetch ?? true));
    } catch (err) {
      // All or nothing: media fetched for the earlier URLs of this request go too.
      for (const row of fetched) this.remove(userId, row.id);
      throw err;
    }
    return refs;
  }

  private async refFromUrl(
    userId: string,
    platform: Platform,
    raw: string,
    at: string,
    fetched: MediaRow[],
    fetch: boolean,
  ): Promise<MediaRef> {
    const refuse = (message: string, detail: string) =>
      new HeraldError('INVALID_INPUT', message, { details: [{ path: at, message: detail }] });
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw refuse('Media URLs must be absolute http(s) URLs', 'not a URL');
    }
    const localId = this.localMediaId(url);
    if (localId) {
      if (platform === 'threadblog') {
        throw refuse(
          'Threads fetches media from a public URL itself, so media stored in Herald cannot be sent to ' +
            'Threads by URL; use a public https URL',
          'local media cannot go to Threads by URL',
        );
      }
      return { mediaId: this.own(userId, localId).id };
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:')
      throw refuse('Media URLs must be http(s)', 'http(s) only');
    if (url.username || url.password)
      throw refuse('Media URLs must not carry a user name or password', 'credentials in URL');
    if (platform === 'threadblog') {
      const literal = ipLiteral(url.hostname);
      const local =
        url.hostname === 'localhost' ||
        url.hostname.endsWith('.localhost') ||
        (literal !== undefined && blockedReason(literal) !== undefined);
      if (local)
        throw refuse(
          'Threads fetches media itself, so the URL must be public; this one points to a private or loopback address',
          'not a public address',
        );
      return { url: url.href };
    }
    if (!fetch) return { url: url.href };
    try {
      const row = await this.storeFromUrl(userId, url.href);
      fetched.push(row);
      return { mediaId: row.id };
    } catch (err) {
      if (err instanceof UrlRefused || err instanceof HeraldError) {
        throw new HeraldError('INVALID_INPUT', `${at}: ${err.message}`, {
          status: err.status,
          details: [{ path: at, message: err.message }],
        });
      }
      throw err;
    }
  }
}
