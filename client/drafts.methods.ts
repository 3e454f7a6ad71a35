/**
 * The writing side of HeraldClient: drafts and what goes into them (media, link cards, templates),
 * and drafts as files. Types only from the contracts, so it stays browser-safe.
 */
import type * as drafts from '../server/contracts/drafts.js';
import type * as draftFiles from '../server/contracts/draft-files.js';
import type * as media from '../server/contracts/media.js';
import type * as linkCards from '../server/contracts/link-cards.js';
import type * as templates from '../server/contracts/templates.js';
import {
  ClientCore,
  type In,
  type Out,
  type Message,
  type QueryOf,
  type Query,
  type WriteOptions,
} from './client-core.js';

/**
 * HeraldClient's methods for drafts, their files, link cards, media and templates (one area of
 * the class; see herald-client.ts).
 */
export class DraftsMethods extends ClientCore {
  // Drafts
  /** Every draft, newest first; pass `limit` (and then `cursor: nextCursor`) to page. */
  listDrafts(query: QueryOf<typeof drafts.listQuery> = {}) {
    return this.request<Out<typeof drafts.draftListResponse>>('GET', '/microblog/drafts', { query: query as Query });
  }
  getDraft(id: string) {
    return this.request<Out<typeof drafts.draftResponse>>('GET', `/microblog/drafts/${encodeURIComponent(id)}`);
  }
  /** Creates a draft from posts (`tweets: [{content, position}]`); content may be HTML or plain text. */
  createDraft(body: In<typeof drafts.createDraftBody>, write: WriteOptions = {}) {
    return this.request<Out<typeof drafts.draftResponse>>('POST', '/microblog/drafts', { body, idempotent: write });
  }
  /** Creates up to 100 drafts, all or nothing. */
  createDrafts(body: In<typeof drafts.batchBody>, write: WriteOptions = {}) {
    return this.request<Out<typeof drafts.batchResponse>>('POST', '/microblog/drafts/batch', {
      body,
      idempotent: write,
    });
  }
  updateDraft(id: string, body: In<typeof drafts.updateDraftBody>) {
    return this.request<Out<typeof drafts.draftResponse>>('PUT', `/microblog/drafts/${encodeURIComponent(id)}`, {
      body,
    });
  }
  deleteDraft(id: string) {
    return this.request<Message>('DELETE', `/microblog/drafts/${encodeURIComponent(id)}`);
  }
  getDraftPlatforms(id: string) {
    return this.request<Out<typeof drafts.platformsResponse>>(
      'GET',
      `/microblog/drafts/${encodeURIComponent(id)}/platforms`,
    );
  }
  /** Upserts per-network text; empty content removes that network's override. */
  setDraftPlatforms(id: string, body: In<typeof drafts.putPlatformsBody>) {
    return this.request<Out<typeof drafts.platformsResponse>>(
      'PUT',
      `/microblog/drafts/${encodeURIComponent(id)}/platforms`,
      { body },
    );
  }
  /** What each target network receives for a draft, counted by that account's rules. */
  draftNetworks(id: string, accountIds?: string[]) {
    return this.request<Out<typeof drafts.networksResponse>>(
      'GET',
      `/microblog/drafts/${encodeURIComponent(id)}/networks`,
      { query: { accountIds: accountIds?.join(',') } },
    );
  }
  /** Splits text into posts that fit one network, counted with an account's rules when given. */
  splitText(body: In<typeof drafts.splitBody>) {
    return this.request<Out<typeof drafts.splitResponse>>('POST', '/microblog/drafts/split', { body });
  }

  /**
   * The link card of a page (title, description, image, site name), or `card: null` when the page cannot be read; then
   * its image's bytes (NOT_FOUND when none can be read).
   */
  linkPreview(url: string) {
    return this.request<Out<typeof linkCards.linkPreviewResponse>>('GET', '/link-preview', { query: { url } });
  }
  linkPreviewImage(pageUrl: string) {
    return this.request<Blob>('GET', '/link-preview/image', { query: { url: pageUrl }, raw: true });
  }
  /**
   * A draft as a file: Markdown with YAML front matter (`format: 'md'`, the default) or JSON; times in `timeZone` when
   * given.
   */
  exportDraft(id: string, query: QueryOf<typeof draftFiles.exportQuery> = {}) {
    return this.request<string>('GET', `/microblog/drafts/${encodeURIComponent(id)}/export`, {
      query: query as Query,
      asText: true,
    });
  }
  /**
   * Creates drafts from a Markdown file (one draft) or JSON (one, an array or `{drafts}`); `dryRun` only reads and
   * checks.
   */
  importDrafts(
    data: string,
    format: In<typeof draftFiles.fileFormat>,
    query: QueryOf<typeof draftFiles.importQuery> = {},
    write: WriteOptions = {},
  ) {
    return this.request<Out<typeof draftFiles.importResponse>>('POST', '/microblog/drafts/import', {
      text: { type: format === 'md' ? 'text/markdown' : 'application/json', data },
      query: query as Query,
      idempotent: write,
    });
  }
  /**
   * One draft per CSV row (text, networks, scheduledFor, timeZone, media, language); errors name row and column;
   * nothing is created when a row is wrong unless `partial`.
   */
  importDraftsCsv(data: string, query: QueryOf<typeof draftFiles.csvQuery> = {}, write: WriteOptions = {}) {
    return this.request<Out<typeof draftFiles.csvResponse>>('POST', '/microblog/drafts/import-csv', {
      text: { type: 'text/csv', data },
      query: query as Query,
      idempotent: write,
    });
  }

  // Media
  /** Upload up to 4 files (images, GIF, MP4/MOV); each becomes a media item to attach to posts. */
  uploadMedia(files: readonly { name: string; data: Blob }[], write: WriteOptions = {}) {
    const form = new FormData();
    for (const f of files) form.append('files', f.data, f.name);
    return this.request<Out<typeof media.uploadResponse>>('POST', '/microblog/media/upload', {
      form,
      idempotent: write,
    });
  }
  setMediaAltText(mediaId: string, altText: string) {
    return this.request<Out<typeof media.mediaResponse>>('PATCH', `/microblog/media/${encodeURIComponent(mediaId)}`, {
      body: { altText },
    });
  }
  /** The title (LinkedIn shows it for documents and videos) and/or the alt text. */
  updateMedia(mediaId: string, change: { title?: string; altText?: string }) {
    const path = `/microblog/media/${encodeURIComponent(mediaId)}`;
    return this.request<Out<typeof media.mediaResponse>>('PUT', path, { body: change });
  }
  /** WebVTT captions, one per language (Bluesky and LinkedIn videos carry them). */
  setMediaCaptions(mediaId: string, captions: { lang: string; vtt: string }[]) {
    const path = `/microblog/media/${encodeURIComponent(mediaId)}/captions`;
    return this.request<Out<typeof media.mediaResponse>>('PUT', path, { body: { captions } });
  }
  deleteMedia(mediaId: string) {
    return this.request<Out<typeof media.deletedResponse>>('DELETE', `/microblog/media/${encodeURIComponent(mediaId)}`);
  }
  /** Where a media item's bytes are served (no key needed: ids are unguessable). */
  mediaUrl(mediaId: string) {
    return `${this.baseUrl}/media/${encodeURIComponent(mediaId)}`;
  }
  /** The bytes of a media item. */
  getMedia(mediaId: string) {
    return this.request<Blob>('GET', `/media/${encodeURIComponent(mediaId)}`, { auth: false, raw: true });
  }

  // Templates

  listTemplates() {
    return this.request<Out<typeof templates.templateListResponse>>('GET', '/templates');
  }
  getTemplate(id: string) {
    return this.request<Out<typeof templates.templateResponse>>('GET', `/templates/${encodeURIComponent(id)}`);
  }
  createTemplate(body: In<typeof templates.createTemplateBody>, write: WriteOptions = {}) {
    return this.request<Out<typeof templates.templateResponse>>('POST', '/templates', { body, idempotent: write });
  }
  updateTemplate(id: string, body: In<typeof templates.updateTemplateBody>) {
    return this.request<Out<typeof templates.templateResponse>>('PUT', `/templates/${encodeURIComponent(id)}`, {
      body,
    });
  }
  deleteTemplate(id: string) {
    return this.request<Message>('DELETE', `/templates/${encodeURIComponent(id)}`);
  }
}
