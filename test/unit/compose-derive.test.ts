/**
 * The composer's derive step (renderer/src/pages/compose/derive.ts): one table of compositions
 * and what the page must show for each (previews per network, rule issues, the link card's place,
 * verdicts, can-send), and that unchanged networks keep their preview (nothing is redrawn).
 */
import { describe, expect, it } from 'vitest';
import { derive, type DeriveInput } from '../../renderer/src/pages/compose/derive.js';
import type { MediaRef, Post } from '../../renderer/src/pages/compose/model.js';
import { overflowAt, type Platform } from '../../text/index.js';
import { overflowOf } from '../../renderer/src/pages/compose/preview/analysis.js';

let key = 1;
const post = (text: string, media: MediaRef[] = []): Post => ({ key: key++, text, media });
const image: MediaRef = { mediaId: 'm1', altText: 'a cat', type: 'image', url: '/media/m1' };
const ALL: Platform[] = ['microblog', 'skyblog', 'fedblog', 'threadblog', 'problog'];
const ids = Object.fromEntries(ALL.map((p) => [p, { name: 'Me', handle: 'me' }]));
const input = (posts: Post[], more: Partial<DeriveInput> = {}): DeriveInput => ({
  posts,
  overrides: {},
  linkCard: null,
  platforms: ALL,
  facts: { opts: {}, ids },
  targets: 5,
  ...more,
});
const long = 'word '.repeat(80).trim(); // 399 characters: over X (280) and Bluesky (300), within the rest

type Row = {
  name: string;
  in: DeriveInput;
  previews: Partial<Record<Platform, number | 'invalid'>>;
  issues: string[];
  canSend: boolean;
  tooLong?: boolean;
  cardPost?: number;
  cardLink?: string | null;
  links?: string[];
};
const table: Row[] = [
  {
    name: 'empty: nothing to send, no issue',
    in: input([post('')]),
    previews: { microblog: 'invalid', problog: 'invalid' },
    issues: [],
    canSend: false,
  },
  {
    name: 'a short post goes to all five',
    in: input([post('Hello there')]),
    previews: { microblog: 1, skyblog: 1, fedblog: 1, threadblog: 1, problog: 1 },
    issues: [],
    canSend: true,
  },
  {
    name: 'a short post without an account cannot be sent',
    in: input([post('Hello there')], { targets: 0 }),
    previews: { microblog: 1 },
    issues: [],
    canSend: false,
  },
  {
    name: 'too long for X and Bluesky: a length issue each, not sendable',
    in: input([post(long)]),
    previews: { microblog: 'invalid', skyblog: 'invalid', fedblog: 1, problog: 1 },
    issues: ['microblog:length', 'skyblog:length'],
    canSend: false,
    tooLong: true,
  },
  {
    name: 'own text for X that fits makes X valid; the editor counts only the thread networks',
    in: input([post(long)], {
      overrides: { microblog: 'Short for X', skyblog: 'Short for Bluesky' },
    }),
    previews: { microblog: 1, skyblog: 1, fedblog: 1 },
    issues: [],
    canSend: true,
  },
  {
    name: 'a thread is one post per part; on LinkedIn a post and its two comments',
    in: input([post('one'), post('two'), post('three')]),
    previews: { microblog: 3, threadblog: 3, problog: 3 },
    issues: [],
    canSend: true,
  },
  {
    name: 'on LinkedIn the post takes 3,000 characters, a comment 1,250: a later part of 1,300 does not fit',
    // Joined (before LinkedIn threads went as comments) the two would fit one post of 3,000.
    in: input([post('x'.repeat(1000)), post('y'.repeat(1300))], { platforms: ['problog'] }),
    previews: { problog: 'invalid' },
    issues: ['problog:length'],
    canSend: false,
    tooLong: true,
  },
  {
    name: 'Threads and media kept in Herald: an issue and a warning',
    in: input([post('look', [image])]),
    // Sendable: publishing asks first and names the issue.
    previews: { threadblog: 1, microblog: 1 },
    issues: ['threadblog:public-media'],
    canSend: true,
  },
  {
    name: 'alt text over the 1,000 characters of X: X invalid, named; Bluesky and LinkedIn take it',
    in: input([post('look', [{ ...image, altText: 'a'.repeat(1001) }])], {
      platforms: ['microblog', 'skyblog', 'problog'],
    }),
    previews: { microblog: 'invalid', skyblog: 1, problog: 1 },
    issues: ['microblog:other'],
    canSend: false,
  },
  {
    name: 'Threads and media kept in Herald with a media relay: no issue',
    in: input([post('look', [image])], { relayReady: true }),
    previews: { threadblog: 1, microblog: 1 },
    issues: [],
    canSend: true,
  },
  {
    name: 'no link in the first post: no card by default, every link offered',
    in: input([post('intro'), post('see https://example.com/a and https://example.org/b')], {
      linkCard: null,
    }),
    previews: { microblog: 2 },
    issues: [],
    canSend: true,
    cardPost: 0,
    cardLink: null,
    links: ['https://example.com/a', 'https://example.org/b'],
  },
  {
    name: 'a chosen card link: under its post',
    in: input([post('intro'), post('see https://example.com/a and https://example.org/b')], {
      linkCard: { url: 'https://example.org/b' },
    }),
    previews: { microblog: 2 },
    issues: [],
    canSend: true,
    cardPost: 1,
    cardLink: 'https://example.org/b',
  },
  {
    name: 'only X selected: only its preview',
    in: input([post('Hello')], { platforms: ['microblog'], targets: 1 }),
    previews: { microblog: 1, skyblog: undefined },
    issues: [],
    canSend: true,
  },
];

describe('derive', () => {
  it.each(table)('$name', (row) => {
    const d = derive(row.in);
    for (const [pl, want] of Object.entries(row.previews)) {
      const p = d.previews.find((x) => x.platform === pl);
      if (want === undefined) expect(p, pl).toBeUndefined();
      else if (want === 'invalid') expect(p?.valid, pl).toBe(false);
      else {
        expect(p?.valid, pl).toBe(true);
        expect(p?.posts.length, pl).toBe(want);
      }
    }
    expect(d.issues.map((i) => `${i.platform}:${i.kind}`)).toEqual(row.issues);
    expect(d.canSend).toBe(row.canSend);
    if (row.tooLong !== undefined) expect(d.tooLong).toBe(row.tooLong);
    if (row.cardPost !== undefined) expect(d.cardPost).toBe(row.cardPost);
    if (row.cardLink !== undefined) expect(d.cardLink).toBe(row.cardLink ?? d.firstPostLink);
    if (row.links) expect(d.links).toEqual(row.links);
    // The editor's counters: one per network that sends the thread, one row per post.
    expect(d.editorVerdicts.length).toBe(row.in.posts.length);
    const own = Object.keys(row.in.overrides).length;
    expect(d.editorVerdicts[0].map((x) => x.pl).length).toBe(row.in.platforms.length - own);
    // The warning of a network is its public-media issue.
    for (const p of d.previews)
      expect(Boolean(p.warning)).toBe(d.issues.some((i) => i.platform === p.platform && i.kind === 'public-media'));
  });

  it('puts the loaded card on the post with its link, only for the link it was read for', () => {
    const posts = [post('intro'), post('read https://example.com/a')];
    const card = { url: 'https://example.com/a', title: 'A', description: '', imageUrl: 'https://example.com/i.png' };
    const d = derive(
      input(posts, { linkCard: { url: 'https://example.com/a' }, card: { url: 'https://example.com/a', card } }),
    );
    expect(d.cardLink).toBe('https://example.com/a');
    const sky = d.previews.find((p) => p.platform === 'skyblog')!;
    expect(sky.cards).toEqual([undefined, { ...card, imageUrl: null }]);
    // LinkedIn's second part is a comment, which carries no card: the post does.
    const li = d.previews.find((p) => p.platform === 'problog')!;
    expect(li.cards).toEqual([{ ...card, imageUrl: null }, undefined]);
    const stale = derive(
      input(posts, { linkCard: { url: 'https://example.com/a' }, card: { url: 'https://example.com/old', card } }),
    );
    expect(stale.previews.find((p) => p.platform === 'skyblog')!.cards).toBeUndefined();
  });

  it('keeps a network preview when nothing it is made from changed, and makes a new one when a post did', () => {
    const posts = [post('one'), post('two')];
    const a = derive(input(posts));
    const b = derive(input(posts));
    expect(b.previews[0]).toBe(a.previews[0]);
    const c = derive(input([posts[0], post('two!')]));
    expect(c.previews[0]).not.toBe(a.previews[0]);
    // The unchanged post's verdict is the remembered one.
    expect(c.previews[0].verdicts[0]).toBe(a.previews[0].verdicts[0]);
  });

  it("keeps an editor's row of verdicts when its post did not change, so only the edited editor is drawn again", () => {
    const posts = Array.from({ length: 25 }, (_, i) => post(`part ${i + 1}`));
    const a = derive(input(posts));
    const edited = posts.map((p, i) => (i === 12 ? post(`${p.text}!`) : p));
    const b = derive(input(edited));
    b.editorVerdicts.forEach((row, i) => {
      if (i === 12) expect(row, 'the edited post').not.toBe(a.editorVerdicts[i]);
      else expect(row, `post ${i + 1}`).toBe(a.editorVerdicts[i]);
    });
    expect(b.editorVerdicts[12][0].v.count).toBe(a.editorVerdicts[12][0].v.count + 1);
    // A row whose network list changed is a new one.
    const fewer = derive(input(edited, { platforms: ['microblog'] }));
    expect(fewer.editorVerdicts[0]).not.toBe(b.editorVerdicts[0]);
    expect(fewer.editorVerdicts[0].map((x) => x.pl)).toEqual(['microblog']);
  });
});

describe('remembered counting (preview/analysis.ts)', () => {
  it('typing past the limit answers the same overflow point as searching again', () => {
    const base = 'We shipped it 🎉 — read https://example.com/notes and tell @friend 👩🏾‍💻 #herald. '.repeat(60);
    for (const platform of ALL) {
      let text = base;
      for (const ch of ' and then some more') {
        text += ch;
        expect(overflowOf(platform, text), `${platform} at ${text.length}`).toBe(overflowAt(platform, text));
      }
    }
    // A change before the point is searched again.
    const edited = `https://example.org/a-much-longer-link-that-counts-differently ${base}`;
    expect(overflowOf('microblog', edited)).toBe(overflowAt('microblog', edited));
  });
});
