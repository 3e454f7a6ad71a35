/** Media upload, alt text and removal. */
import { z } from 'zod';
import { lazySchema } from './lazy.js';
import { successTrue } from './common.js';
import { ALT_TEXT_MAX } from '../../text/draft-limits.js';

export const mediaType = lazySchema(() =>
  z.enum(['image', 'gif', 'video']).describe('image = PNG, JPEG or WebP; gif; video = MP4 or MOV'),
);

export const mediaIdParam = lazySchema(() =>
  z.object({ mediaId: z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, 'not a media id') }),
);

export const uploadResponse = lazySchema(() =>
  z.object({
    code: z.literal(0),
    success: successTrue,
    data: z.object({ uploads: z.array(z.object({ mediaId: z.string(), url: z.string(), type: mediaType })) }),
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
  }),
);

export const mediaResponse = lazySchema(() => z.object({ success: successTrue, media: mediaItem }));
export const deletedResponse = lazySchema(() => z.object({ success: successTrue, message: z.string() }));
