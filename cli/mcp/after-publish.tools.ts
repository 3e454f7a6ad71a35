/**
 * MCP tools after publishing: the published posts, deleting one (with `confirm: true`, as a
 * deletion cannot be undone) and editing one where its network allows. Each a thin client call.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { HeraldClient } from '../../client/index.js';
import { call, refuse } from './tool-result.js';

export function registerAfterPublishTools(server: McpServer, client: HeraldClient): void {
  server.registerTool(
    'list_publications',
    {
      description:
        'Published posts and other publications, newest first: id, network, account, status, url, deletedAt, editedAt.',
      inputSchema: {
        status: z
          .enum(['pending', 'publishing', 'published', 'failed', 'needs_review', 'missed', 'cancelled', 'skipped'])
          .optional(),
        limit: z.number().int().min(1).max(500).optional(),
      },
    },
    (a) => call(() => client.publications({ status: a.status, limit: a.limit }))(),
  );
  server.registerTool(
    'delete_publication',
    {
      description:
        'Delete a published post on its network, with the later parts of its thread Herald sent. It cannot be ' +
        'undone: it needs confirm: true, given only when the person asked to delete it.',
      inputSchema: { id: z.string(), confirm: z.boolean().optional().describe('must be true') },
    },
    (a) =>
      a.confirm !== true
        ? Promise.resolve(
            refuse(
              'Refused: deleting a published post cannot be undone, so it needs confirm: true. Nothing was deleted.',
            ),
          )
        : call(() => client.deletePublication(a.id))(),
  );
  server.registerTool(
    'edit_publication',
    {
      description:
        "Replace a published post's text on its network (Mastodon and LinkedIn allow it; other networks answer " +
        'NOT_SUPPORTED naming what they allow).',
      inputSchema: { id: z.string(), text: z.string().min(1).max(10_000) },
    },
    (a) => call(() => client.editPublication(a.id, { text: a.text }))(),
  );
}
