import { pipeline } from 'node:stream/promises';
import * as c from '../../contracts/media.js';
import type { Services } from '../../domain/services.js';
import { HeraldError, notFound } from '../../core/errors.js';
import { MEDIA_TYPES } from '../../domain/media/media-types.js';
import { mediaUpload, uploadedMedia } from '../middleware/media-upload.js';
import { defineRoute, type RouteDef } from '../route.js';

const tag = 'Media';

/** The form's `title` fields, in order (multer gives one as a string, several as an array). */
const formTitles = (body: unknown): string[] => {
  const t = (body as { title?: unknown } | undefined)?.title;
  return (Array.isArray(t) ? t : [t]).filter((x): x is string => typeof x === 'string');
};
/** A media item is served with the type found when it was stored. */
const MEDIA_MIMES = Object.values(MEDIA_TYPES).map((t) => t.mime);

export const mediaRoutes = (s: Services): RouteDef[] => [
  defineRoute({
    method: 'post',
    idempotent: true,
    path: '/microblog/media/upload',
    tag,
    summary: 'Upload up to 4 media files (multipart part `files`)',
    description:
      'The type is decided from the bytes, never the declared type or name: PNG, JPEG, WebP (5 MB each), GIF ' +
      '(15 MB), MP4 or MOV (512 MB). Images at most 8192 px a side and 40 megapixels; GIFs at most 1000 ' +
      'frames. Over a byte cap: 413; another type (SVG, HTML, scripts, ...): 415; malformed, truncated, ' +
      'trailing data, pixel or frame caps, more than 4 files: 400. All or nothing: nothing is kept when one ' +
      'file fails. PDF documents (LinkedIn only): at most 100 MB and 300 pages; a broken PDF or one over 300 ' +
      'pages is 400. Form field `title` (repeat it for several files, in order): the title LinkedIn shows for ' +
      'a document or video; default: the file name.',
    bodyType: 'multipart',
    before: [mediaUpload(s.media)],
    response: c.uploadResponse,
    errors: ['INVALID_API_KEY', 'INVALID_INPUT', 'RATE_LIMITED'],
    handler: ({ auth, req }) => {
      const stored = uploadedMedia(req);
      if (stored.length === 0) throw new HeraldError('INVALID_INPUT', 'No file found in the part named "files"');
      const rows = s.media.saveStored(auth.user.id, stored, formTitles(req.body));
      // The Host guard let only this server's own names through: the page's thumbnails load from its own origin.
      const origin = req.headers.host ? `http://${req.headers.host.toLowerCase()}` : undefined;
      return {
        code: 0,
        success: true,
        data: {
          uploads: rows.map((r) => ({
            mediaId: r.id,
            url: s.media.url(r.id, origin),
            type: r.type,
            title: r.title,
            durationMs: r.durationMs,
            pages: r.pages,
          })),
        },
      };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/media/:mediaId',
    tag,
    auth: false,
    summary: 'The bytes of a media item',
    description:
      'No key needed (an <img> cannot send one): the URL is the capability, its id 128 bits of randomness, ' +
      "given only to the key that uploaded it. Browsers may load it only from Herald's own pages: a request " +
      'another site makes (Sec-Fetch-Site cross-site or same-site) gets the same 404 as an unknown id, ' +
      'before any lookup. Served with the type found when it was stored, nosniff, ' +
      'Cross-Origin-Resource-Policy same-origin and a CSP that allows nothing.',
    params: c.mediaIdParam,
    responseType: MEDIA_MIMES,
    errors: ['NOT_FOUND'],
    handler: async ({ params, req, res }) => {
      // Another site's page that learned an id (a leaked draft, a log) cannot show or time it.
      const site = req.headers['sec-fetch-site'];
      if (site !== undefined && site !== 'same-origin' && site !== 'none') throw notFound('Media');
      const { row, file } = await s.media.open(params.mediaId);
      res.setHeader('Content-Type', row.mime);
      res.setHeader('Content-Length', String(row.size));
      res.setHeader('Content-Disposition', `inline; filename="${row.fileName}"`);
      res.setHeader('Content-Security-Policy', "default-src 'none'; sandbox");
      res.setHeader('X-Content-Type-Options', 'nosniff');
      res.status(200);
      // HEAD (the composer asks a reopened draft's media for their sizes): the headers, no read.
      if (req.method === 'HEAD') {
        await file.close();
        res.end();
        return undefined;
      }
      try {
        await pipeline(file.createReadStream(), res);
      } catch {
        // The reader went away mid-transfer; the file handle is closed by the pipeline.
        res.destroy();
      }
      return undefined;
    },
  }),
  defineRoute({
    method: 'patch',
    path: '/microblog/media/:mediaId',
    tag,
    summary: 'Set the alt text of a media item (max 1500 characters)',
    params: c.mediaIdParam,
    body: c.altTextBody,
    response: c.mediaResponse,
    errors: ['INVALID_API_KEY', 'INVALID_INPUT', 'NOT_FOUND', 'RATE_LIMITED'],
    handler: ({ auth, params, body }) => ({
      success: true,
      media: s.media.updateAltText(auth.user.id, params.mediaId, body.altText),
    }),
  }),
  defineRoute({
    method: 'put',
    path: '/microblog/media/:mediaId',
    tag,
    summary: 'Set the title and/or the alt text of a media item',
    params: c.mediaIdParam,
    body: c.mediaUpdateBody,
    response: c.mediaResponse,
    errors: ['INVALID_API_KEY', 'INVALID_INPUT', 'NOT_FOUND', 'RATE_LIMITED'],
    handler: ({ auth, params, body }) => ({ success: true, media: s.media.update(auth.user.id, params.mediaId, body) }),
  }),
  defineRoute({
    method: 'put',
    path: '/microblog/media/:mediaId/captions',
    tag,
    summary: 'Set the captions of a video (WebVTT, one per language)',
    description:
      'Replaces every caption of the item. Each is WebVTT (the signature and every cue timing checked), at ' +
      'most 20,000 bytes, with a BCP 47 `lang`; at most 20. Bluesky and LinkedIn videos carry them.',
    params: c.mediaIdParam,
    body: c.captionsBody,
    response: c.mediaResponse,
    errors: ['INVALID_API_KEY', 'INVALID_INPUT', 'NOT_FOUND', 'RATE_LIMITED'],
    handler: ({ auth, params, body }) => ({
      success: true,
      media: s.media.setCaptions(auth.user.id, params.mediaId, body.captions),
    }),
  }),
  defineRoute({
    method: 'delete',
    path: '/microblog/media/:mediaId',
    tag,
    summary: 'Delete a media item and its file',
    params: c.mediaIdParam,
    response: c.deletedResponse,
    errors: ['INVALID_API_KEY', 'NOT_FOUND', 'RATE_LIMITED'],
    handler: ({ auth, params }) => {
      s.media.remove(auth.user.id, params.mediaId);
      return { success: true, message: 'Media deleted' };
    },
  }),
];
