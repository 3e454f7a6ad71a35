/**
 * A draft saved in one request: create and update take the per-network text and the template
 * with the posts (the composer's save), in one transaction; the older shapes keep working.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { addAccountsOnEveryNetwork, get, post, put, useDraftsServer } from '../helpers/drafts-server.js';

useDraftsServer();

describe('one body', () => {
  let template: string;
  beforeAll(async () => {
    addAccountsOnEveryNetwork();
    template = (await post('/templates', { name: 'T', headContentPlain: 'HEAD', tailContentPlain: 'TAIL' })).body
      .template.uuid;
  });

  it('creates a draft with per-network text and a template already in the text', async () => {
    const r = await post('/microblog/drafts', {
      title: 'one',
      tweets: [{ content: 'HEAD\n\nhello' }, { content: 'bye\n\nTAIL' }],
      templateId: template,
      templateInText: true,
      platforms: [
        { platform: 'skyblog', content: 'sky text' },
        { platform: 'problog', content: '' },
      ],
    });
    expect(r.status).toBe(200);
    expect(r.body.draft.templateId).toBe(template);
    // Not framed a second time.
    expect(r.body.draft.tweets.map((x: { plainText: string }) => x.plainText)).toEqual([
      'HEAD\n\nhello',
      'bye\n\nTAIL',
    ]);
    const pl = (await get(`/microblog/drafts/${r.body.draft.id}/platforms`)).body.platforms;
    expect(pl.map((p: { platform: string; content: string }) => [p.platform, p.content])).toEqual([
      ['skyblog', 'sky text'],
    ]);
  });

  it('updates posts, template and per-network text in one request', async () => {
    const id = (
      await post('/microblog/drafts', {
        title: 'u',
        tweets: [{ content: 'a' }],
        platforms: [{ platform: 'skyblog', content: 'old' }],
      })
    ).body.draft.id;
    const r = await put(`/microblog/drafts/${id}`, {
      title: 'u2',
      tweets: [{ content: 'HEAD\n\nb' }],
      templateId: template,
      templateInText: true,
      platforms: [
        { platform: 'skyblog', content: '' },
        { platform: 'fedblog', content: 'masto' },
      ],
    });
    expect(r.status).toBe(200);
    expect(r.body.draft).toMatchObject({ title: 'u2', templateId: template });
    expect(r.body.draft.tweets[0].plainText).toBe('HEAD\n\nb');
    const pl = (await get(`/microblog/drafts/${id}/platforms`)).body.platforms;
    expect(pl.map((p: { platform: string; content: string }) => [p.platform, p.content])).toEqual([
      ['fedblog', 'masto'],
    ]);
  });

  it('is all or nothing: a bad part leaves posts and per-network text as they were', async () => {
    const id = (
      await post('/microblog/drafts', {
        title: 'keep',
        tweets: [{ content: 'kept' }],
        platforms: [{ platform: 'skyblog', content: 'sky' }],
      })
    ).body.draft.id;
    const r = await put(`/microblog/drafts/${id}`, {
      title: 'changed',
      tweets: [{ content: 'lost' }],
      platforms: [{ platform: 'skyblog', content: 'gone' }],
      templateId: 'ghost',
    });
    expect(r.status).toBe(400);
    expect(r.body.details[0].path).toBe('templateId');
    const d = (await get(`/microblog/drafts/${id}`)).body.draft;
    expect(d.title).toBe('keep');
    expect(d.tweets[0].plainText).toBe('kept');
    expect((await get(`/microblog/drafts/${id}/platforms`)).body.platforms[0].content).toBe('sky');
  });

  it('keeps the older shapes: a template with posts frames them; PUT .../platforms still works', async () => {
    const r = await post('/microblog/drafts', { title: 'old', tweets: [{ content: 'mid' }], templateId: template });
    expect(r.body.draft.tweets[0].plainText).toBe('HEAD\nmid\nTAIL');
    const p = await put(`/microblog/drafts/${r.body.draft.id}/platforms`, {
      platforms: [{ platform: 'problog', content: 'li' }],
    });
    expect(p.status).toBe(200);
    expect(p.body.platforms[0].content).toBe('li');
    const dup = await put(`/microblog/drafts/${r.body.draft.id}`, {
      platforms: [
        { platform: 'problog', content: 'a' },
        { platform: 'problog', content: 'b' },
      ],
    });
    expect(dup.status).toBe(400);
  });
});
