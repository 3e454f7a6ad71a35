import { idParam } from '../../contracts/common.js';
import * as c from '../../contracts/draft-files.js';
import { z } from 'zod';
import type { Services } from '../../domain/services.js';
import { defineRoute } from '../route.js';

const tag = 'Drafts';
const base = ['INVALID_API_KEY', 'RATE_LIMITED'] as const;
const file = z.string().max(16 * 1024 * 1024);
const mediaType = (req: { headers: { 'content-type'?: string } }) =>
  (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();

/** Drafts as files (docs/decisions.md §17): Markdown with YAML front matter, JSON, CSV for bulk. */
export const draftFileRoutes = (s: Services) => [
  defineRoute({
    method: 'get',
    path: '/microblog/drafts/:id/export',
    tag,
    summary: 'A draft as a file (Markdown or JSON)',
    description:
      'Markdown: YAML front matter (title, networks, platforms, scheduledFor, timeZone, language, media), ' +
      "then the posts' plain text separated by lines of `---` (a text line that reads `---` is written " +
      '`\\---`, and each further backslash is kept the same way). JSON: the same fields, each post with its ' +
      'HTML too. Media are named by id.',
    params: idParam,
    query: c.exportQuery,
    responseType: 'text/markdown',
    errors: [...base, 'INVALID_INPUT', 'NOT_FOUND'],
    handler: ({ auth, params, query, res }) => {
      const text = s.draftFiles.export(auth.user.id, params.id, query.format, query.timeZone);
      res.setHeader(
        'Content-Type',
        query.format === 'md' ? 'text/markdown; charset=utf-8' : 'application/json; charset=utf-8',
      );
      res.setHeader(
        'Content-Disposition',
        `attachment; filename="draft-${params.id.replace(/[^A-Za-z0-9-]/g, '')}.${query.format}"`,
      );
      res.end(text);
    },
  }),
  defineRoute({
    method: 'post',
    idempotent: true,
    path: '/microblog/drafts/import',
    tag,
    summary: 'Create drafts from a Markdown or JSON file',
    description:
      'Body: one Markdown draft (`text/markdown`) or JSON (`application/json`: one draft, an array, or ' +
      '`{drafts}`; up to 100). All or nothing. `networks` holds account ids or network names (every account ' +
      'of that network). Media are given by id: the server never reads a path (`herald draft import` uploads ' +
      'the files a draft names first). scheduledFor stays on the draft unless schedule=true, which schedules ' +
      'each draft that has one (one entry per target account, jitter only with applyJitter=true; `scheduled` ' +
      'lists the entries). Broken front matter is 400 INVALID_INPUT naming its line.',
    bodyType: 'text',
    bodyTypes: ['text/markdown', 'application/json'],
    body: file,
    query: c.importQuery,
    response: c.importResponse,
    errors: [...base, 'INVALID_INPUT', 'NO_SOCIAL_SET', 'NOT_FOUND'],
    handler: async ({ auth, body, query, req }) => {
      const type = mediaType(req) === 'text/markdown' ? 'markdown' : 'json';
      return { success: true, ...(await s.draftFiles.import(auth.user.id, body, type, query.dryRun, query)) };
    },
  }),
  defineRoute({
    method: 'post',
    idempotent: true,
    path: '/microblog/drafts/import-csv',
    tag,
    summary: 'Create one draft per CSV row (bulk scheduling)',
    description:
      'Columns (header row first): text, networks, scheduledFor, timeZone, media. networks and media hold ' +
      'several values separated by spaces, commas, semicolons or bars (media are media ids). scheduledFor: ' +
      'ISO 8601 with an offset, or a local time with timeZone; it must lie in the future and at most two ' +
      'years ahead. A row with a time is scheduled then, one entry per target account as POST ' +
      "/microblog/schedule makes (jitter only with applyJitter=true; each item's queueIds lists its " +
      'entries); schedule=false only creates drafts. A row that cannot be scheduled is a row error. Errors ' +
      'name the row (the header is row 1) and column. With any wrong row nothing is imported unless ' +
      '`partial=true`; `dryRun=true` checks everything and imports nothing.',
    bodyType: 'text',
    bodyTypes: ['text/csv'],
    body: file,
    query: c.csvQuery,
    response: c.csvResponse,
    errors: [...base, 'INVALID_INPUT', 'NO_SOCIAL_SET', 'SPEND_CAP_REACHED'],
    handler: async ({ auth, body, query }) => ({
      success: true,
      ...(await s.draftFiles.importCsv(auth.user.id, body, query)),
    }),
  }),
];
