/**
 * `herald alert` and `herald evergreen` as the real binary against a real server: an alert added
 * by URL (shown masked), tested against a webhook simulator, deleted; a draft marked evergreen.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { cliEnv, herald, ok, parseKeyValues } from '../helpers/cli.js';
import { addAccount, userIdOf } from '../helpers/drafts.js';
import { OWNER, startServer, tempDir, type TestServer } from '../helpers/server.js';
import { startWebhookSimulator, type WebhookSimulator } from '../simulators/alerts.hooks.js';

vi.setConfig({ testTimeout: 120_000 });

let t: TestServer;
let key: string;
let home: string;
let hook: WebhookSimulator;
const cli = (...args: string[]) =>
  herald(args, { env: cliEnv(home, { HERALD_API_KEY: key, HERALD_BASE_URL: t.base }) });

beforeAll(async () => {
  hook = await startWebhookSimulator({ secret: 'cli-secret' });
  t = await startServer({ scheduler: false });
  key = await t.login();
  home = tempDir('herald-cli-alerts-');
});

afterAll(async () => {
  await t?.close();
  await hook?.close();
  fs.rmSync(home, { recursive: true, force: true });
});

describe('herald alert', () => {
  it('adds, tests (signed), lists masked and deletes', async () => {
    const added = JSON.parse(
      ok(await cli('alert', 'add', `generic+${hook.url}/hook?token=abc`, '--secret', 'cli-secret', '-o', 'json')),
    );
    expect(added.alert.url).not.toContain('abc');
    const id = added.alert.id as string;
    const tested = ok(await cli('alert', 'test', id));
    expect(tested).toContain('sent');
    expect(hook.received).toHaveLength(1);
    expect(hook.refused).toBe(0);
    const bad = await cli('alert', 'add', 'ntfy://host-only');
    expect(bad.code).not.toBe(0);
    expect(bad.err).toContain('topic');
    ok(await cli('alert', 'delete', id));
    expect(JSON.parse(ok(await cli('alert', '-o', 'json'))).alerts).toEqual([]);
  });

  it('herald evergreen turns a draft evergreen and shows it', async () => {
    addAccount(t, userIdOf(t, OWNER.email), 'fedblog');
    const made = await t.call('POST', '/microblog/drafts', { key, body: { title: 'E', tweets: [{ content: 'E' }] } });
    expect(made.status, made.text).toBe(200);
    const d = made.body.draft.id as string;
    const shown = parseKeyValues(ok(await cli('evergreen', d, '--on', '--min-days', '45', '--variant', 'E again')));
    expect(shown).toMatchObject({ enabled: 'true', minDaysBetween: '45', variants: '1', maxRepeats: 'no end' });
    expect(parseKeyValues(ok(await cli('evergreen', d, '--off'))).enabled).toBe('false');
  });
});
