import { z } from 'zod';
import { name, successTrue, timestamp } from './common.js';

export const templateSchema = z.object({
  uuid: z.string(),
  name: z.string(),
  description: z.string(),
  head_content_plain: z.string(),
  tail_content_plain: z.string(),
  head_content_html: z.string(),
  tail_content_html: z.string(),
  created_at: timestamp,
  updated_at: timestamp,
});
export type Template = z.infer<typeof templateSchema>;

const text = z.string().max(10_000);
export const createTemplateBody = z.object({
  name: name(200),
  description: z.string().max(2000).optional(),
  headContentPlain: text.optional(),
  tailContentPlain: text.optional(),
  headContentHtml: text.optional(),
  tailContentHtml: text.optional(),
});
export const updateTemplateBody = createTemplateBody.partial();

export const templateListResponse = z.object({ success: successTrue, templates: z.array(templateSchema) });
export const templateResponse = z.object({ success: successTrue, template: templateSchema });
