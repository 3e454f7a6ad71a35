/**
 * Post options from the command line and in draft files: `herald draft create` with --poll,
 * --reply-control, --cw and the rest (the real CLI in a child process against a real server), a
 * wrong value refused naming the field, and a draft's options carried through a Markdown and a
 * JSON export and back in by import.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { cliEnv, herald } from '../helpers/cli.js';
import { addAccount, userIdOf } from '../helpers/drafts.js';
import { OWNER, startServer, tempDir, type TestServer } from '../helpers/server.js';

vi.setConfig({ testTimeout: 180_000 });

let t: TestServer;
let key: string;
let home: string;
const cli = (args: string[]) => herald(args, { env: cliEnv(home, { HERALD_API_KEY: key, HERALD_BASE_URL: t.base }) });

beforeAll(async () => {
  t = await startServer({ scheduler: false });
  key = await t.login();
  addAccount(t, userIdOf(t, OWNER.email), 'skyblog');
  home = tempDir('herald-cli-options-');
});
afterAll(async () => {
  await t.close();
  fs.rmSync(home, { recursive: true, force: true });
});

const options = {
  poll: { choices: ['A', 'B', 'C'], durationMinutes: 1440 },
  replyControl: 'following',
  contentWarning: 'spoilers',
  topicTag: 'Films',
  selfLabels: ['graphic-media'],
  visibility: 'unlisted',
  quoteUrl: 'https://bsky.app/profile/alice.test/post/3kabcdef',
  aiGenerated: true,
};

describe('herald draft create with post options', () => {
  it('sends the options the flags name; a wrong value is refused naming the field', async () => {
    const r = await cli([
      'draft',
      'create',
      '--content',
      'Which film?',
      '-o',
      'json',
      '--poll',
      'A,B,C',
      '--poll-minutes',
      '1440',
      '--reply-control',
      'following',
      '--cw',
      'spoilers',
      '--topic-tag',
      'Films',
      '--self-labels',
      'graphic-media',
      '--visibility',
      'unlisted',
      '--quote',
      options.quoteUrl,
      '--ai-generated',
    ]);
    expect(r.code, r.err).toBe(0);
    const id = JSON.parse(r.out).draft.id;
    expect((await t.call('GET', `/microblog/drafts/${id}`, { key })).body.draft.options).toEqual(options);
    const bad = await cli(['draft', 'create', '--content', 'x', '--poll', 'only one']);
    expect(bad.code).not.toBe(0);
    expect(bad.err).toMatch(/options\.poll\.choices/);
    const tag = await cli(['draft', 'create', '--content', 'x', '--topic-tag', 'R&D']);
    expect(tag.err).toMatch(/options\.topicTag/);
  });

  it('Markdown and JSON files carry the options both ways', async () => {
    const id = (
      await t.call('POST', '/microblog/drafts', { key, body: { title: 'f', tweets: [{ content: 'Hi' }], options } })
    ).body.draft.id;
    for (const format of ['md', 'json']) {
      const out = await t.call('GET', `/microblog/drafts/${id}/export?format=${format}`, { key });
      expect(out.status, out.text).toBe(200);
      const text = out.text;
      if (format === 'md') expect(text).toMatch(/options:\n\s+poll:/);
      const back = await t.call('POST', '/microblog/drafts/import', {
        key,
        raw: text,
        headers: { 'content-type': format === 'md' ? 'text/markdown' : 'application/json' },
      });
      expect(back.status, back.text).toBe(200);
      expect(back.body.drafts[0].options).toEqual(options);
    }
  });
});
