import { z } from 'zod';
import { built, lazySchema } from './lazy.js';
import { name, successTrue, timestamp } from './common.js';

export const templateSchema = lazySchema(() =>
  z.object({
    uuid: z.string(),
    name: z.string(),
    description: z.string(),
    head_content_plain: z.string(),
    tail_content_plain: z.string(),
    head_content_html: z.string(),
    tail_content_html: z.string(),
    created_at: timestamp,
    updated_at: timestamp,
  }),
);
export type Template = z.infer<typeof templateSchema>;

const text = lazySchema(() => z.string().max(10_000));
export const createTemplateBody = lazySchema(() =>
  z.object({
    name: name(200),
    description: z.string().max(2000).optional(),
    headContentPlain: text.optional(),
    tailContentPlain: text.optional(),
    headContentHtml: text.optional(),
    tailContentHtml: text.optional(),
  }),
);
export const updateTemplateBody = lazySchema(() => built(createTemplateBody).partial());

export const templateListResponse = lazySchema(() =>
  z.object({ success: successTrue, templates: z.array(templateSchema) }),
);
export const templateResponse = lazySchema(() => z.object({ success: successTrue, template: templateSchema }));
