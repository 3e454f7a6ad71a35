// Mastodon simulator: media. POST /api/v2/media (image, gifv, video or audio; a description of at
// most 1,500 characters) answers 202 while non-images process; GET /api/v1/media/:id answers 206
// until done; PUT changes the description; /system/media_attachments/:id serves the bytes.
import { str } from './common.js';
import type { Router, SimReply, SimRequest } from './common.js';
import type { MastodonMedia, MastodonState } from './mastodon.simulator.js';

export function registerMastodonMedia(
  router: Router,
  ctx: {
    state: MastodonState;
    auth(req: SimRequest, scope: string): { accountId: string; headers: Record<string, string> } | SimReply;
    err: (status: number, error: string) => SimReply;
    nextId: () => string;
    mediaView: (m: MastodonMedia) => unknown;
    /** X-RateLimit-* headers of the window `key` (counting this request). */
    rateHeaders: (key: string, limit: number, periodSec: number) => Record<string, string>;
    /** GET answers 206 this many times for a non-image before 200. */
    processingPolls: number;
  },
): void {
  const { state, auth, err, nextId, mediaView, rateHeaders } = ctx;
  router.on('POST', '/api/v2/media', (req) => {
    const a = auth(req, 'write:media');
    if (!('accountId' in a)) return a;
    const file = req.files.find((f) => f.name === 'file');
    if (!file || !file.contentType) return err(422, 'Validation failed: File content type is invalid, File is invalid');
    const mime = file.contentType;
    const type: MastodonMedia['type'] = mime.startsWith('image/')
      ? mime === 'image/gif'
        ? 'gifv'
        : 'image'
      : mime.startsWith('video/')
        ? 'video'
        : mime.startsWith('audio/')
          ? 'audio'
          : 'unknown';
    if (type === 'unknown') return err(422, 'Validation failed: File content type is invalid, File is invalid');
    const description = str(req.body.description) ?? null;
    if (description && description.length > 1500)
      return err(422, 'Validation failed: Description is too long (maximum is 1500 characters)');
    const m: MastodonMedia = {
      id: nextId(),
      accountId: a.accountId,
      type,
      mime,
      bytes: file.data,
      description,
      pollsLeft: type === 'image' ? 0 : ctx.processingPolls,
      failed: false,
    };
    state.media.set(m.id, m);
    const headers = { ...a.headers, ...rateHeaders(`media:${a.accountId}`, 30, 1800) };
    return { status: m.pollsLeft > 0 ? 202 : 200, body: mediaView(m), headers };
  });
  router.on('GET', '/api/v1/media/:id', (req) => {
    const a = auth(req, 'write:media');
    if (!('accountId' in a)) return a;
    const m = state.media.get(req.params.id!);
    if (!m || m.accountId !== a.accountId) return err(404, 'Record not found');
    if (m.failed) return err(422, 'Error processing thumbnail for uploaded media');
    if (m.pollsLeft > 0) {
      m.pollsLeft -= 1;
      return { status: 206, body: mediaView({ ...m, pollsLeft: 1 }), headers: a.headers };
    }
    return { status: 200, body: mediaView(m), headers: a.headers };
  });
  router.on('PUT', '/api/v1/media/:id', (req) => {
    const a = auth(req, 'write:media');
    if (!('accountId' in a)) return a;
    const m = state.media.get(req.params.id!);
    if (!m || m.accountId !== a.accountId) return err(404, 'Record not found');
    const d = str(req.body.description);
    if (d !== undefined) m.description = d;
    return { status: 200, body: mediaView(m), headers: a.headers };
  });
  router.on('GET', '/system/media_attachments/:id', (req) => {
    const m = state.media.get(req.params.id!);
    return m ? { status: 200, raw: m.bytes, headers: { 'content-type': m.mime } } : err(404, 'Record not found');
  });
}
