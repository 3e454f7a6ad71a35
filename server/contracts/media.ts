/** Media upload, alt text and removal. */
import { z } from 'zod';
import { lazySchema } from './lazy.js';
import { successTrue } from './common.js';
import { ALT_TEXT_MAX } from '../../text/draft-limits.js';

export const mediaType = lazySchema(() =>
  z
    .enum(['image', 'gif', 'video', 'document'])
    .describe('image = PNG, JPEG or WebP; gif; video = MP4 or MOV; document = PDF (LinkedIn only, alone in its post)'),
);

const caption = () =>
  z.object({
    lang: z.string().min(2).max(35).describe('BCP 47 language tag'),
    vtt: z.string().describe('WebVTT text, at most 20,000 bytes'),
  });

export const mediaIdParam = lazySchema(() =>
  z.object({ mediaId: z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, 'not a media id') }),
);

export const uploadResponse = lazySchema(() =>
  z.object({
    code: z.literal(0),
    success: successTrue,
    data: z.object({
      uploads: z.array(
        z.object({
          mediaId: z.string(),
          url: z.string(),
          type: mediaType,
          title: z.string(),
          durationMs: z.number().int().nullable(),
          pages: z.number().int().nullable(),
        }),
      ),
    }),
  }),
);

export const altTextBody = lazySchema(() => z.object({ altText: z.string().max(ALT_TEXT_MAX) }));

export const mediaItem = lazySchema(() =>
  z.object({
    mediaId: z.string(),
    url: z.string(),
    type: mediaType,
    altText: z.string(),
    width: z.number().int().nullable(),
    height: z.number().int().nullable(),
    size: z.number().int(),
    title: z.string().describe('LinkedIn shows it for documents and videos; default: the file name'),
    captions: z.array(caption()),
    durationMs: z.number().int().nullable().describe('videos: the length from the movie header'),
    pages: z.number().int().nullable().describe('documents: the page count'),
  }),
);

export const mediaUpdateBody = lazySchema(() =>
  z.object({ title: z.string().max(400).optional(), altText: z.string().max(ALT_TEXT_MAX).optional() }),
);

export const captionsBody = lazySchema(() =>
  z.object({ captions: z.array(caption()).max(20).describe('WebVTT, each at most 20,000 bytes; at most 20') }),
);

export const mediaResponse = lazySchema(() => z.object({ success: successTrue, media: mediaItem }));
export const deletedResponse = lazySchema(() => z.object({ success: successTrue, message: z.string() }));
