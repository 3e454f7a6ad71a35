/**
 * Drafts as files (issue #24 item 5): the pure converters. Export → import gives the same file
 * back exactly (per-network text, thread parts, Unicode, and text lines that look like the `---`
 * separator), broken front matter names its line, a CSV row's errors name row and column.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DraftFile } from '../../server/contracts/draft-files.js';
import { HeraldError } from '../../server/core/errors.js';
import {
  escapePost,
  fileToInput,
  fromCsv,
  fromJson,
  fromMarkdown,
  instantInZone,
  instantOf,
  localToInstant,
  splitPosts,
  toJson,
  toMarkdown,
} from '../../server/domain/drafts/draft-files.js';

// Pieces chosen to meet every rule: separators and escaped separators as whole lines, blank
// lines, RTL, emoji sequences, YAML-looking text, HTML-looking text.
const piece = fc.constantFrom(
  'a',
  'Hello',
  ' ',
  '  ',
  '\n',
  '\n\n',
  '---',
  '--- ',
  '\\---',
  '\\\\---',
  '----',
  '-',
  '\\',
  '\t',
  '...',
  'שלום',
  'مرحبا',
  '\u200f',
  '👨‍👩‍👧‍👦',
  '🇫🇷',
  '👍🏽',
  'e\u0301',
  '日本語',
  '# title',
  'key: value',
  '- item',
  '"quoted"',
  "'",
  '<b>x</b>',
  '&amp;',
  '#tag',
  '@bob',
  'https://example.com/a?b=1',
);
const text = fc.array(piece, { maxLength: 12 }).map((a) => a.join(''));
const anyString = fc.string({ unit: 'grapheme', maxLength: 40 });
const platforms = fc.dictionary(
  fc.constantFrom('microblog', 'skyblog', 'fedblog', 'threadblog', 'problog'),
  fc.oneof(text, anyString),
  { maxKeys: 5 },
);
const iso = fc
  .date({ min: new Date('2026-01-01T00:00:00Z'), max: new Date('2027-12-31T00:00:00Z'), noInvalidDate: true })
  .map((d) => d.toISOString());

const file: fc.Arbitrary<DraftFile> = fc
  .record(
    {
      title: fc.oneof(anyString, text).map((t) => t.slice(0, 500)),
      posts: fc.array(
        text.map((t) => ({ text: t })),
        { minLength: 1, maxLength: 6 },
      ),
      networks: fc.array(fc.oneof(fc.constantFrom('skyblog', 'fedblog'), fc.uuid()), { minLength: 1, maxLength: 3 }),
      platforms,
      scheduledFor: iso,
      timeZone: fc.constantFrom('Europe/Paris', 'Asia/Jerusalem', 'America/New_York', 'UTC'),
      language: fc.constantFrom('en', 'he', 'ar-EG', 'fr-CA'),
      media: fc.array(fc.record({ post: fc.constant(1), id: fc.uuid(), alt: fc.oneof(anyString, text) }), {
        minLength: 1,
        maxLength: 3,
      }),
    },
    { requiredKeys: ['posts'] },
  )
  .map((f) => {
    // Empty lists and maps are left out of a file, so they read back as absent.
    const out: DraftFile = { ...f };
    if (out.networks?.length === 0) delete out.networks;
    if (out.media?.length === 0) delete out.media;
    if (out.platforms && Object.keys(out.platforms).length === 0) delete out.platforms;
    return out;
  });

describe('Markdown', () => {
  it('export → import reproduces the file exactly (property)', () => {
    fc.assert(
      fc.property(file, (f) => {
        expect(fromMarkdown(toMarkdown(f))).toEqual(f);
      }),
      { numRuns: 400 },
    );
  });

  it('posts split on --- lines; a text line of --- is escaped and comes back', () => {
    const f: DraftFile = {
      posts: [{ text: 'one\n---\ntwo' }, { text: '\\---' }, { text: '\nstarts blank' }, { text: 'ends blank\n' }],
    };
    const md = toMarkdown(f);
    expect(md).toContain('one\n\\---\ntwo');
    expect(md).toContain('\\\\---');
    expect(fromMarkdown(md).posts).toEqual(f.posts);
    expect(escapePost('a\n--- \nb')).toBe('a\n\\--- \nb');
  });

  it('reads hand-written files: no padding, CRLF, BOM, no front matter', () => {
    expect(splitPosts('a\n---\nb')).toEqual(['a', 'b']);
    expect(fromMarkdown('\uFEFF---\r\nnetworks: [skyblog]\r\n---\r\nFirst\r\n---\r\nSecond\r\n')).toEqual({
      networks: ['skyblog'],
      posts: [{ text: 'First' }, { text: 'Second' }],
    });
    expect(fromMarkdown('Just text\n')).toEqual({ posts: [{ text: 'Just text' }] });
  });

  it('per-network text keeps its own --- thread lines inside the front matter', () => {
    const f: DraftFile = {
      platforms: { skyblog: 'one\n---\ntwo', problog: 'long\n\n---\n\nx' },
      posts: [{ text: 'x' }],
    };
    const md = toMarkdown(f);
    expect(md.split('\n').filter((l) => l === '---')).toHaveLength(2);
    expect(fromMarkdown(md)).toEqual(f);
  });

  it('broken front matter: 400 naming the line', () => {
    const bad = '---\nnetworks: [skyblog\ntitle: x\n---\nHello\n';
    const err = (() => {
      try {
        fromMarkdown(bad);
      } catch (e) {
        return e;
      }
    })() as HeraldError;
    expect(err).toBeInstanceOf(HeraldError);
    expect(err.code).toBe('INVALID_INPUT');
    expect(err.message).toMatch(/Broken front matter at line \d/);
    expect(() => fromMarkdown('---\ntitle: x\nHello\n')).toThrow(/no closing --- line/);
    expect(() => fromMarkdown('---\n- a\n- b\n---\nx\n')).toThrow(/mapping/);
    expect(() => fromMarkdown('---\nnetworks: 3\n---\nx\n')).toThrow(/networks/);
    // The safe schema: a tag that would build an object in other loaders is refused.
    expect(() => fromMarkdown('---\ntitle: !!js/function "function(){}"\n---\nx\n')).toThrow(/Unresolved tag/);
  });

  it('a time needs an offset or a zone; a bad zone is named', () => {
    expect(() => fromMarkdown('---\nscheduledFor: 2026-12-01T09:30\n---\nx\n')).toThrow(/no offset/);
    expect(() => fromMarkdown('---\nscheduledFor: 2026-02-30T09:30:00Z\n---\nx\n')).toThrow(/calendar date/);
    expect(() => fromMarkdown('---\ntimeZone: Mars/Olympus\n---\nx\n')).toThrow(/IANA/);
    const f = fromMarkdown('---\nscheduledFor: 2026-12-01T09:30\ntimeZone: Europe/Paris\n---\nx\n');
    expect(instantOf(f)).toBe('2026-12-01T08:30:00.000Z');
  });
});

describe('JSON', () => {
  it('export → import reproduces the file (property), one or many', () => {
    fc.assert(
      fc.property(file, (f) => {
        expect(fromJson(toJson(f))).toEqual([{ format: 'herald-draft/1', ...f }]);
      }),
      { numRuns: 200 },
    );
    expect(fromJson(JSON.stringify({ drafts: [{ posts: [{ text: 'a' }] }, { posts: [{ text: 'b' }] }] }))).toHaveLength(
      2,
    );
  });

  it('broken JSON and wrong shapes are 400 naming the field', () => {
    expect(() => fromJson('{"posts": [')).toThrow(/Broken JSON/);
    for (const v of ['null', '3', '"x"', '[]', '[null]', '{"drafts": 5}'])
      expect(() => fromJson(v), v).toThrow(HeraldError);
    expect(() => fromJson('{"posts": []}')).toThrow(/body.posts/);
    expect(() => fromJson('{"drafts": [{"posts": [{"text": "a"}]}, {"posts": [{"text": 3}]}]}')).toThrow(
      /body\.drafts\.1\.posts\.0\.text/,
    );
  });
});

describe('time zones', () => {
  it('local times: a gap moves forward, a repeated hour takes the earlier instant', () => {
    // Paris: 2026-03-29 02:00 → 03:00 (gap); 2026-10-25 03:00 → 02:00 (repeat).
    expect(new Date(localToInstant('2026-03-29T02:30', 'Europe/Paris')).toISOString()).toBe('2026-03-29T01:30:00.000Z');
    expect(new Date(localToInstant('2026-10-25T02:30', 'Europe/Paris')).toISOString()).toBe('2026-10-25T00:30:00.000Z');
    expect(new Date(localToInstant('2026-07-01T12:00', 'America/New_York')).toISOString()).toBe(
      '2026-07-01T16:00:00.000Z',
    );
    expect(instantInZone('2026-12-01T08:30:00.000Z', 'Europe/Paris')).toBe('2026-12-01T09:30:00+01:00');
    expect(instantInZone('2026-07-01T16:00:00.000Z', 'America/New_York')).toBe('2026-07-01T12:00:00-04:00');
    expect(instantInZone('2026-07-01T16:00:00.000Z', 'UTC')).toBe('2026-07-01T16:00:00Z');
  });
});

describe('files → create bodies', () => {
  it('plain text is sent escaped; media go to their post; a media path is refused with why', () => {
    const input = fileToInput(
      { posts: [{ text: 'a <b> c' }, { text: 'two' }], media: [{ post: 2, id: 'm1', alt: 'x' }] },
      'body',
    );
    expect(input.tweets).toEqual([
      { content: '<p>a &lt;b&gt; c</p>', position: 0 },
      { content: 'two', position: 1, media: [{ mediaId: 'm1', altText: 'x' }] },
    ]);
    expect(input.title).toBe('a <b> c');
    expect(() => fileToInput({ posts: [{ text: 'a' }], media: [{ post: 1, path: './p.png' }] }, 'body')).toThrow(
      /does not read files/,
    );
    expect(() => fileToInput({ posts: [{ text: 'a' }], media: [{ post: 3, id: 'm' }] }, 'body')).toThrow(/no post 3/);
  });
});

describe('CSV', () => {
  it('reads rows; errors name row (header is row 1) and column', () => {
    const csv = [
      'text,networks,scheduledFor,timeZone,media',
      'Hello,skyblog;fedblog,2026-12-01T09:00:00Z,,',
      '"Multi\nline, with comma",,2026-12-01T09:00,Europe/Paris,m1 m2',
      'Bad time,skyblog,2026-13-01T09:00:00Z,,',
      ',skyblog,,,',
      'Bad zone,,2026-12-01T09:00,Nowhere/Land,',
      'No offset,,2026-12-01T09:00,,',
    ].join('\n');
    const { rows, errors } = fromCsv(csv);
    expect(rows.map((r) => r.row)).toEqual([2, 3]);
    expect(rows[0].file).toEqual({
      posts: [{ text: 'Hello' }],
      networks: ['skyblog', 'fedblog'],
      scheduledFor: '2026-12-01T09:00:00Z',
    });
    expect(rows[1].file.posts).toEqual([{ text: 'Multi\nline, with comma' }]);
    expect(rows[1].file.media).toEqual([
      { post: 1, id: 'm1' },
      { post: 1, id: 'm2' },
    ]);
    expect(errors).toEqual([
      { row: 4, column: 'scheduledFor', message: expect.stringMatching(/2026-13-01.*calendar date/) },
      { row: 5, column: 'text', message: 'no text' },
      { row: 6, column: 'timeZone', message: expect.stringMatching(/IANA/) },
      { row: 7, column: 'scheduledFor', message: expect.stringMatching(/no offset/) },
    ]);
  });

  it('header problems and broken quoting are errors of their own', () => {
    expect(fromCsv('text,when\nx,y\n').errors).toEqual([
      { row: 1, column: 'when', message: expect.stringMatching(/Unknown column/) },
    ]);
    expect(fromCsv('networks\nx\n').errors[0]).toMatchObject({ row: 1, column: 'text' });
    expect(fromCsv('').errors[0]).toMatchObject({ row: 1, column: 'row' });
    expect(fromCsv('text\n"unclosed\n').errors[0]).toMatchObject({
      column: 'row',
      message: expect.stringMatching(/Broken CSV/),
    });
  });

  it('reads 10,000 rows (the time is bench/csv-import.bench.ts)', () => {
    const lines = ['text,networks,scheduledFor,timeZone,media'];
    for (let i = 0; i < 10_000; i++)
      lines.push(`"Post ${i}, with ""quotes"" and 😀",skyblog,2026-12-01T09:00:00Z,Europe/Paris,`);
    const { rows, errors } = fromCsv(lines.join('\n'));
    expect(errors).toEqual([]);
    expect(rows).toHaveLength(10_000);
  });
});
