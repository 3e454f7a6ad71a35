import { idParam, messageResponse } from '../../contracts/common.js';
import * as c from '../../contracts/templates.js';
import type { Services } from '../../domain/services.js';
import { defineRoute } from '../route.js';

const tag = 'Templates';

export const templateRoutes = (s: Services) => [
  defineRoute({
    method: 'get',
    path: '/templates',
    tag,
    summary: 'List templates, newest first',
    response: c.templateListResponse,
    errors: ['INVALID_API_KEY', 'RATE_LIMITED'],
    handler: ({ auth }) => ({ success: true, templates: s.templates.list(auth.user.id) }),
  }),
  defineRoute({
    method: 'get',
    path: '/templates/:id',
    tag,
    summary: 'One template',
    params: idParam,
    response: c.templateResponse,
    errors: ['INVALID_API_KEY', 'NOT_FOUND', 'RATE_LIMITED'],
    handler: ({ auth, params }) => ({ success: true, template: s.templates.get(auth.user.id, params.id) }),
  }),
  defineRoute({
    method: 'post',
    idempotent: true,
    path: '/templates',
    tag,
    summary: 'Create a template (head and tail text)',
    description:
      'Plain text is derived from HTML when only HTML is given, and HTML from plain text when only plain is ' +
      'given. HTML is sanitised.',
    body: c.createTemplateBody,
    response: c.templateResponse,
    errors: ['INVALID_API_KEY', 'INVALID_INPUT', 'RATE_LIMITED'],
    handler: ({ auth, body }) => ({ success: true, template: s.templates.create(auth.user.id, body) }),
  }),
  defineRoute({
    method: 'put',
    path: '/templates/:id',
    tag,
    summary: 'Update any template field',
    params: idParam,
    body: c.updateTemplateBody,
    response: c.templateResponse,
    errors: ['INVALID_API_KEY', 'INVALID_INPUT', 'NOT_FOUND', 'RATE_LIMITED'],
    handler: ({ auth, params, body }) => ({
      success: true,
      template: s.templates.update(auth.user.id, params.id, body),
    }),
  }),
  defineRoute({
    method: 'delete',
    path: '/templates/:id',
    tag,
    summary: 'Delete a template',
    params: idParam,
    response: messageResponse,
    errors: ['INVALID_API_KEY', 'NOT_FOUND', 'RATE_LIMITED'],
    handler: ({ auth, params }) => {
      s.templates.delete(auth.user.id, params.id);
      return { success: true, message: 'Template deleted' };
    },
  }),
];
