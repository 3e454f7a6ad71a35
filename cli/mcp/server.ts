/**
 * `herald mcp`: Herald as an MCP server over stdio (docs/decisions.md §17), with the official SDK. Each
 * tool is one call on the typed client, authenticated like the CLI (HERALD_API_KEY /
 * HERALD_BASE_URL, --api-key / --base-url, or the saved login); no server code here. Every draft
 * is also a resource, `herald://drafts/{id}`.
 *
 * Answers are the API's JSON as text. An API error becomes a tool error (`isError`) with the
 * code and message, so the model reads why; publishing without `confirm: true` is refused the
 * same way before anything is sent.
 */
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
import type { HeraldClient } from '../../client/index.js';
import { plainToHtml } from '../../text/html.js';
import { PLATFORMS as NETWORKS } from '../../text/networks.js';
import { registerAfterPublishTools } from './after-publish.tools.js';
import type { PostOptionsValue as DraftOptions } from '../../text/post-options.js';

import { call, refuse } from './tool-result.js';

const posts = z
  .array(z.string().max(100_000))
  .min(1)
  .max(100)
  .describe('the posts of the thread, in order, as plain text');
const asContent = (list: string[]) => list.map((p, position) => ({ content: plainToHtml(p), position }));

export function buildMcpServer(client: HeraldClient, version: string): McpServer {
  const server = new McpServer({ name: 'herald', version });

  server.registerTool(
    'list_accounts',
    { description: 'The connected social accounts (id, network, username, status).' },
    call(() => client.listAccounts()),
  );
  server.registerTool(
    'list_drafts',
    {
      description: 'Drafts, newest first.',
      inputSchema: {
        status: z.enum(['draft', 'scheduled', 'publishing', 'published', 'partially_published', 'failed']).optional(),
        limit: z.number().int().min(1).max(500).optional(),
      },
    },
    (a) => call(() => client.listDrafts({ status: a.status, limit: a.limit }))(),
  );
  server.registerTool(
    'get_draft',
    { description: 'One draft with each post counted for each target network.', inputSchema: { id: z.string() } },
    (a) => call(() => client.getDraft(a.id))(),
  );
  const draftExtras = {
    language: z
      .string()
      .max(35)
      .nullable()
      .optional()
      .describe(
        'BCP 47 language of the posts (sent as Bluesky langs and Mastodon language); null: the setting defaultLanguage',
      ),
    linkCard: z
      .union([z.literal(false), z.object({ url: z.string().url() })])
      .nullable()
      .optional()
      .describe(
        'null: a link card of the first link of the first post (Bluesky, LinkedIn); false: none; {url}: that page',
      ),
    options: z
      .record(z.string(), z.unknown())
      .nullable()
      .optional()
      .describe(
        'post options, checked by the server: poll {choices (2-4), durationMinutes, multiple?, question?}, ' +
          'pollFallback "text", replyControl, quoteControl, contentWarning, sensitiveMedia, selfLabels, ' +
          'visibility, topicTag, quoteUrl, aiGenerated, paidPartnership; null clears them',
      ),
  };
  // The server validates options and names a wrong field; the tool passes them on as given.
  const asOptions = (o: Record<string, unknown> | null | undefined) => o as DraftOptions | null | undefined;
  server.registerTool(
    'create_draft',
    {
      description:
        "Create a draft (a post or a thread). Targets: accountIds, else the social set's accounts. " +
        'Per-network text (optional) replaces the posts on that network; a line of --- separates its thread ' +
        'posts.',
      inputSchema: {
        posts,
        title: z.string().max(500).optional(),
        accountIds: z.array(z.string()).max(100).optional(),
        scheduledFor: z
          .string()
          .optional()
          .describe('ISO 8601 with Z or an offset; kept on the draft (use schedule to schedule it)'),
        perNetwork: z.partialRecord(z.enum(NETWORKS), z.string().max(100_000)).optional(),
        ...draftExtras,
      },
    },
    (a) =>
      call(async () => {
        const r = await client.createDraft({
          title: a.title ?? a.posts[0].split('\n')[0].slice(0, 80),
          tweets: asContent(a.posts),
          selectedAccountIds: a.accountIds,
          scheduledFor: a.scheduledFor,
          language: a.language,
          linkCard: a.linkCard,
          options: asOptions(a.options),
        });
        if (a.perNetwork && Object.keys(a.perNetwork).length > 0) {
          await client.setDraftPlatforms(r.draft.id, {
            platforms: Object.entries(a.perNetwork).map(([platform, content]) => ({
              platform: platform as (typeof NETWORKS)[number],
              content: content!,
            })),
          });
          return client.getDraft(r.draft.id);
        }
        return r;
      })(),
  );
  server.registerTool(
    'update_draft',
    {
      description: 'Change a draft: new posts replace every post; perNetwork sets per-network text (empty removes it).',
      inputSchema: {
        id: z.string(),
        posts: posts.optional(),
        title: z.string().max(500).optional(),
        accountIds: z.array(z.string()).max(100).optional(),
        perNetwork: z.partialRecord(z.enum(NETWORKS), z.string().max(100_000)).optional(),
        ...draftExtras,
      },
    },
    (a) =>
      call(async () => {
        const changes = [a.title, a.language, a.linkCard, a.options].some((v) => v !== undefined);
        if (a.posts || a.accountIds || changes) {
          await client.updateDraft(a.id, {
            title: a.title,
            tweets: a.posts && asContent(a.posts),
            selectedAccountIds: a.accountIds,
            language: a.language,
            linkCard: a.linkCard,
            options: asOptions(a.options),
          });
        }
        if (a.perNetwork)
          await client.setDraftPlatforms(a.id, {
            platforms: Object.entries(a.perNetwork).map(([platform, content]) => ({
              platform: platform as (typeof NETWORKS)[number],
              content: content!,
            })),
          });
        return client.getDraft(a.id);
      })(),
  );
  server.registerTool(
    'preview',
    {
      description:
        "What publishing a draft now would do, without doing it (the API's dry run): per target account the " +
        'posts that network would receive (text, media, link card, language) and the credits, the total ' +
        'credits needed against the balance, and the estimated X cost. Sends, charges and stores nothing.',
      inputSchema: { id: z.string(), accountIds: z.array(z.string()).max(100).optional() },
    },
    (a) => call(() => client.publishDryRun(a.id, { accountIds: a.accountIds }))(),
  );
  server.registerTool(
    'publish',
    {
      description:
        'Publish a draft now to its accounts (or accountIds). This posts publicly and spends credits: it ' +
        'needs confirm: true, given only when the person asked to publish. Use preview first.',
      inputSchema: {
        id: z.string(),
        confirm: z.boolean().optional().describe('must be true'),
        accountIds: z.array(z.string()).max(100).optional(),
      },
    },
    (a) =>
      a.confirm !== true
        ? Promise.resolve(
            refuse(
              'Refused: publish posts publicly and spends credits, so it needs confirm: true. Nothing was ' +
                'sent. Check what would go out with preview, ask the person, then call publish again with ' +
                'confirm: true.',
            ),
          )
        : call(() => client.publish(a.id, { accountIds: a.accountIds }))(),
  );
  server.registerTool(
    'schedule',
    {
      description:
        'Schedule a draft for a time (ISO 8601 with Z or an offset, in the future, at most two years ahead) ' +
        'on its accounts.',
      inputSchema: { id: z.string(), scheduledFor: z.string(), applyJitter: z.boolean().optional() },
    },
    (a) => call(() => client.schedule({ draftId: a.id, scheduledFor: a.scheduledFor, applyJitter: a.applyJitter }))(),
  );
  server.registerTool(
    'cancel_schedule',
    {
      description:
        'Cancel every pending schedule entry of a draft (it becomes a draft again), or with accountId only ' +
        "that account's (the others stay scheduled).",
      inputSchema: { id: z.string(), accountId: z.string().optional() },
    },
    (a) => call(() => client.cancelSchedule(a.id, a.accountId))(),
  );
  server.registerTool(
    'list_schedule',
    { description: 'The scheduled posts, soonest first.' },
    call(() => client.listSchedules()),
  );
  server.registerTool(
    'get_credits',
    { description: 'The credit balance and what scheduled posts will use.' },
    call(() => client.credits()),
  );
  server.registerTool(
    'set_evergreen',
    {
      description:
        'Mark a published draft evergreen (free queue slots take it again every minDaysBetween days, default 30; ' +
        'maxRepeats null: no end; variants: texts X gets in turn), or enabled: false to stop.',
      inputSchema: {
        id: z.string(),
        enabled: z.boolean(),
        minDaysBetween: z.number().int().min(1).optional(),
        maxRepeats: z.number().int().min(1).nullable().optional(),
        variants: z.array(z.string()).optional(),
      },
    },
    ({ id, ...body }) => call(() => client.setEvergreen(id, body))(),
  );
  server.registerTool(
    'list_alerts',
    { description: "The alert destinations (URLs masked), the events each gets and each one's last delivery." },
    call(() => client.alerts()),
  );

  registerAfterPublishTools(server, client);

  server.registerResource(
    'draft',
    new ResourceTemplate('herald://drafts/{id}', {
      list: async () => ({
        resources: (await client.listDrafts()).drafts.map((d) => ({
          uri: `herald://drafts/${d.id}`,
          name: d.title || d.id,
          mimeType: 'application/json',
        })),
      }),
    }),
    { description: 'A Herald draft as JSON', mimeType: 'application/json' },
    async (uri, vars) => {
      const id = String(vars.id);
      const r = await client.getDraft(id);
      return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(r.draft, null, 2) }] };
    },
  );
  return server;
}

/** Serves on stdin/stdout until the client closes the stream. */
export async function serveMcp(client: HeraldClient, version: string): Promise<void> {
  const server = buildMcpServer(client, version);
  const transport = new StdioServerTransport();
  await server.connect(transport);
  await new Promise<void>((resolve) => {
    transport.onclose = resolve;
    process.stdin.on('end', resolve);
  });
}
