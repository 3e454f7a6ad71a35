/** Link cards (docs/decisions.md §16 "Composer"): GET /link-preview. */
import { z } from 'zod';
import { lazySchema } from './lazy.js';
import { successTrue } from './common.js';

export const linkPreviewQuery = lazySchema(() =>
  z.object({
    url: z.string().trim().min(1).max(2000).describe('the page to read: an absolute http(s) URL'),
  }),
);

/** What Herald read from a page: Open Graph, then Twitter-card tags, then <title> and the description. */
export const linkCardSchema = lazySchema(() =>
  z.object({
    url: z.string().describe('the link as asked for'),
    title: z.string(),
    description: z.string(),
    imageUrl: z.string().nullable().describe("absolute http(s) address of the page's image (relative ones resolved)"),
    siteName: z.string().nullable(),
  }),
);

export const linkPreviewResponse = lazySchema(() =>
  z.object({
    success: successTrue,
    card: linkCardSchema
      .nullable()
      .describe('null when the page cannot be read: an error status, not HTML, too slow, nothing in its head'),
  }),
);

export const linkImageQuery = lazySchema(() =>
  z.object({
    url: z
      .string()
      .trim()
      .min(1)
      .max(2000)
      .describe("the page whose card image is wanted (not the image's own address)"),
  }),
);
