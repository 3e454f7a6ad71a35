/**
 * A draft carries its evergreen settings (docs/decisions.md §11) over real HTTP and SQLite: POST and
 * PUT /microblog/drafts write them with the rest in one request (a refused value writes nothing),
 * GET answers them on the draft and in the list, they match GET .../evergreen, and draft files
 * (Markdown front matter and JSON) carry them out and back in.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAccount, userIdOf } from '../helpers/drafts.js';
import { OWNER, startServer, TestClock, type TestServer } from '../helpers/server.js';

let t: TestServer;
let key: string;

beforeAll(async () => {
  t = await startServer({ scheduler: false, clock: new TestClock() });
  key = await t.login();
  addAccount(t, userIdOf(t, OWNER.email), 'fedblog');
});
afterAll(async () => {
  await t.close();
});

const call = (method: string, path: string, body?: unknown) => t.call(method, path, { key, body });
const OFF = { enabled: false, minDaysBetween: 30, maxRepeats: null, variants: [] };

describe('the evergreen field of a draft', () => {
  it('is written with the draft in one request and read back on the draft, the list and .../evergreen', async () => {
    const plain = await call('POST', '/microblog/drafts', { title: 'Plain', tweets: [{ content: 'Once' }] });
    expect(plain.status, plain.text).toBe(200);
    expect(plain.body.draft.evergreen).toEqual(OFF);

    const evergreen = { enabled: true, minDaysBetween: 12, maxRepeats: 4, variants: ['Told again', ' Third way '] };
    const made = await call('POST', '/microblog/drafts', { title: 'Green', tweets: [{ content: 'Hi' }], evergreen });
    expect(made.status, made.text).toBe(200);
    const id = made.body.draft.id;
    const want = { ...evergreen, variants: ['Told again', 'Third way'] };
    expect(made.body.draft.evergreen).toEqual(want);
    expect((await call('GET', `/microblog/drafts/${id}`)).body.draft.evergreen).toEqual(want);
    expect((await call('GET', `/microblog/drafts/${id}/evergreen`)).body.evergreen).toMatchObject(want);
    const listed = (await call('GET', '/microblog/drafts')).body.drafts as any[];
    expect(listed.find((d) => d.id === id).evergreen).toEqual(want);
    expect(listed.find((d) => d.id === plain.body.draft.id).evergreen).toEqual(OFF);

    // Fields left out keep their values, as PUT .../evergreen does.
    const off = await call('PUT', `/microblog/drafts/${id}`, { title: 'Green, paused', evergreen: { enabled: false } });
    expect(off.status, off.text).toBe(200);
    expect(off.body.draft).toMatchObject({ title: 'Green, paused', evergreen: { ...want, enabled: false } });

    // A refused value changes nothing, the title included.
    const bad = await call('PUT', `/microblog/drafts/${id}`, {
      title: 'Lost',
      evergreen: { enabled: true, minDaysBetween: 0 },
    });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body.details)).toContain('evergreen.minDaysBetween');
    expect((await call('GET', `/microblog/drafts/${id}`)).body.draft.title).toBe('Green, paused');

    // Set through PUT .../evergreen, the draft (and the kept list answer) follows.
    const put = await call('PUT', `/microblog/drafts/${id}/evergreen`, { enabled: true, maxRepeats: null });
    expect(put.status, put.text).toBe(200);
    const again = (await call('GET', '/microblog/drafts')).body.drafts.find((d: any) => d.id === id);
    expect(again.evergreen).toEqual({ ...want, enabled: true, maxRepeats: null });
  });

  it('travels in Markdown and JSON draft files, out and back in', async () => {
    const evergreen = { enabled: true, minDaysBetween: 9, maxRepeats: null, variants: ['Once more, with a twist'] };
    const made = await call('POST', '/microblog/drafts', { title: 'File', tweets: [{ content: 'Hello' }], evergreen });
    const id = made.body.draft.id;
    for (const format of ['md', 'json'] as const) {
      const out = await t.call('GET', `/microblog/drafts/${id}/export?format=${format}`, { key });
      expect(out.status, out.text).toBe(200);
      if (format === 'md') expect(out.text).toMatch(/^evergreen:\n {2}enabled: true\n/m);
      else expect(JSON.parse(out.text).evergreen).toEqual(evergreen);
      const type = format === 'md' ? 'text/markdown' : 'application/json';
      const headers = { 'content-type': type };
      const back = await t.call('POST', '/microblog/drafts/import', { key, raw: out.text, headers });
      expect(back.status, back.text).toBe(200);
      expect(back.body.drafts[0].evergreen).toEqual(evergreen);
      const settings = (await call('GET', `/microblog/drafts/${back.body.drafts[0].id}/evergreen`)).body.evergreen;
      expect(settings).toMatchObject(evergreen);
    }
    // A draft never marked evergreen writes no field: its files stay as they were.
    const plain = await call('POST', '/microblog/drafts', { title: 'Plain file', tweets: [{ content: 'Hey' }] });
    const out = await t.call('GET', `/microblog/drafts/${plain.body.draft.id}/export?format=md`, { key });
    expect(out.text).not.toMatch(/evergreen/);
  });
});
