/**
 * `herald mcp` (issue #24 item 4, docs/decisions.md §17) as an agent meets it: the official SDK's Client
 * over StdioClientTransport spawns the real `bin/herald.mjs mcp` against a real server with a
 * Mastodon account connected through the simulator. Tools are listed; a draft is created and
 * read back; publish without confirm is refused with the reason and sends nothing; with confirm
 * it posts; drafts are resources `herald://drafts/{id}`.
 */
import fs from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BIN, cliEnv } from '../helpers/cli.js';
import { connectOAuth } from '../helpers/oauth-connect.js';
import { startServer, tempDir, type TestServer } from '../helpers/server.js';
import { startMastodonSimulator, type MastodonSimulator } from '../simulators/mastodon.simulator.js';

vi.setConfig({ testTimeout: 120_000 });

let t: TestServer;
let sim: MastodonSimulator;
let key: string;
let home: string;
let client: Client;
let fed: string;

const textOf = (r: any): string => r.content.map((c: any) => c.text).join('\n');
const tool = async (name: string, args: Record<string, unknown> = {}) => client.callTool({ name, arguments: args });

beforeAll(async () => {
  sim = await startMastodonSimulator();
  t = await startServer({ scheduler: false });
  key = await t.login();
  const connected = await connectOAuth(t, key, 'fedblog', { instanceUrl: sim.url });
  expect(connected.status, JSON.stringify(connected.body)).toBe(200);
  fed = (await t.call('GET', '/accounts', { key })).body.accounts[0].uuid;
  home = tempDir('herald-mcp-');
  const env = cliEnv(home, { HERALD_API_KEY: key, HERALD_BASE_URL: t.base });
  client = new Client({ name: 'herald-test', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp'],
      env: env as Record<string, string>,
      stderr: 'pipe',
    }),
  );
}, 120_000);

afterAll(async () => {
  await client?.close();
  await t?.close();
  await sim?.close();
  fs.rmSync(home, { recursive: true, force: true });
});

describe('herald mcp', () => {
  it('lists the tools of docs/decisions.md §17, each with a description and an input schema', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((x) => x.name).sort()).toEqual(
      [
        'cancel_schedule',
        'create_draft',
        'delete_publication',
        'edit_publication',
        'get_credits',
        'list_alerts',
        'set_evergreen',
        'get_draft',
        'list_accounts',
        'list_drafts',
        'list_publications',
        'list_schedule',
        'preview',
        'publish',
        'schedule',
        'update_draft',
      ].sort(),
    );
    for (const x of tools) {
      expect(x.description, x.name).toBeTruthy();
      expect(x.inputSchema.type, x.name).toBe('object');
    }
    expect(tools.find((x) => x.name === 'publish')!.inputSchema.properties).toHaveProperty('confirm');
  });

  it(
    'create_draft → get_draft → preview → publish without confirm (refused, nothing sent) → with confirm ' + '(posted)',
    async () => {
      const accounts = JSON.parse(textOf(await tool('list_accounts')));
      expect(accounts.accounts.map((a: any) => a.platform)).toEqual(['fedblog']);
      const user = accounts.accounts[0].username;

      const created = await tool('create_draft', {
        posts: ['Hello from an agent 🤖', 'Second <post> & more'],
        perNetwork: { skyblog: 'Only for Bluesky' },
      });
      expect(created.isError, textOf(created)).toBeFalsy();
      const id = JSON.parse(textOf(created)).draft.id;

      const got = JSON.parse(textOf(await tool('get_draft', { id })));
      expect(got.draft.tweets.map((x: any) => x.plainText)).toEqual(['Hello from an agent 🤖', 'Second <post> & more']);

      const preview = JSON.parse(textOf(await tool('preview', { id })));
      // The API's dry run: what Mastodon would receive and what it costs, nothing sent or charged.
      expect(preview.dryRun).toBe(true);
      expect(preview.plan).toEqual([expect.objectContaining({ accountId: fed, platform: 'fedblog', credits: 10 })]);
      expect(preview.plan[0].posts.map((p: { text: string }) => p.text)).toEqual([
        'Hello from an agent 🤖',
        'Second <post> & more',
      ]);
      expect(preview.credits.needed).toBe(10);

      const before = sim.countPosts(user, 'Hello from an agent 🤖');
      const refused = await tool('publish', { id });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toMatch(/Refused: .*needs confirm: true.*Nothing was sent/);
      const refused2 = await tool('publish', { id, confirm: false });
      expect(refused2.isError).toBe(true);
      expect(sim.countPosts(user, 'Hello from an agent 🤖')).toBe(before);
      expect(JSON.parse(textOf(await tool('get_draft', { id }))).draft.status).toBe('draft');

      const published = await tool('publish', { id, confirm: true });
      expect(published.isError, textOf(published)).toBeFalsy();
      expect(JSON.parse(textOf(published)).summary).toMatchObject({ total: 1, succeeded: 1, failed: 0 });
      expect(sim.countPosts(user, 'Hello from an agent 🤖')).toBe(before + 1);
    },
  );

  it('schedule, list_schedule, cancel_schedule, get_credits; API errors come back as tool errors', async () => {
    const id = JSON.parse(textOf(await tool('create_draft', { posts: ['Later'] }))).draft.id;
    const when = new Date(Date.now() + 86_400_000).toISOString();
    const s = await tool('schedule', { id, scheduledFor: when });
    expect(s.isError, textOf(s)).toBeFalsy();
    expect(textOf(await tool('list_schedule'))).toContain(id);
    expect((await tool('cancel_schedule', { id })).isError).toBeFalsy();
    expect(JSON.parse(textOf(await tool('get_credits'))).success).toBe(true);
    const ever = JSON.parse(textOf(await tool('set_evergreen', { id, enabled: true, minDaysBetween: 60 })));
    expect(ever.evergreen).toMatchObject({ enabled: true, minDaysBetween: 60, maxRepeats: null });
    expect(JSON.parse(textOf(await tool('list_alerts'))).alerts).toEqual([]);
    const missing = await tool('get_draft', { id: 'no-such-draft' });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toMatch(/^NOT_FOUND \(404\)/);
    const past = await tool('schedule', { id, scheduledFor: '2020-01-01T00:00:00Z' });
    expect(past.isError).toBe(true);
    expect(textOf(past)).toMatch(/INVALID_INPUT.*future/);
  });

  it('every draft is a resource herald://drafts/{id}', async () => {
    const id = JSON.parse(textOf(await tool('create_draft', { posts: ['As a resource'], title: 'Resource' }))).draft.id;
    const { resources } = await client.listResources();
    expect(resources).toContainEqual(expect.objectContaining({ uri: `herald://drafts/${id}`, name: 'Resource' }));
    const read = await client.readResource({ uri: `herald://drafts/${id}` });
    expect(JSON.parse((read.contents[0] as { text: string }).text)).toMatchObject({ id, title: 'Resource' });
  });
});
