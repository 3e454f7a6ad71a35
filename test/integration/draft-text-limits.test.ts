/**
 * Text limits at the API (issue #19 item 1, docs/decisions.md §4): a post text over 100,000 characters
 * and a draft over 1,000,000 get 400 INVALID_INPUT naming the field and the limit, over real HTTP
 * into a real database; a body over the JSON limit stays 413.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWNER, startServer, type TestServer } from '../helpers/server.js';
import { addAccount, userIdOf } from '../helpers/drafts.js';

let t: TestServer;
let key: string;
beforeAll(async () => {
  t = await startServer({ scheduler: false });
  key = await t.login();
  addAccount(t, userIdOf(t, OWNER.email), 'microblog');
});
afterAll(async () => {
  await t.close();
});

describe('text limits', () => {
  it('a post of 100,001 characters: 400 naming body.tweets.0.content and 100,000', async () => {
    const r = await t.call('POST', '/microblog/drafts', {
      key,
      body: { title: 'big', tweets: [{ content: 'a'.repeat(100_001) }] },
    });
    expect(r.status).toBe(400);
    expect(r.body.error).toBe('INVALID_INPUT');
    const d = r.body.details.find((x: { path: string }) => x.path === 'body.tweets.0.content');
    expect(d?.message).toMatch(/100,000/);
  });

  it('a post of exactly 100,000 characters is taken', async () => {
    const r = await t.call('POST', '/microblog/drafts', {
      key,
      body: { title: 'ok', tweets: [{ content: 'a.'.repeat(50_000) }] },
    });
    expect(r.status).toBe(200);
  });

  it('a draft over 1,000,000 characters in all: 400 naming body.tweets and 1,000,000', async () => {
    const tweets = Array.from({ length: 11 }, () => ({ content: 'b'.repeat(91_000) }));
    const r = await t.call('POST', '/microblog/drafts', { key, body: { title: 'huge', tweets } });
    expect(r.status).toBe(400);
    expect(r.body.error).toBe('INVALID_INPUT');
    const d = r.body.details.find((x: { path: string }) => x.path === 'body.tweets');
    expect(d?.message).toMatch(/1,000,000/);
  });

  it('a body over the JSON limit stays 413', async () => {
    const tweets = Array.from({ length: 12 }, () => ({ content: 'é'.repeat(90_000) }));
    const r = await t.call('POST', '/microblog/drafts', { key, body: { title: 'too big', tweets } });
    expect(r.status).toBe(413);
  });
});
