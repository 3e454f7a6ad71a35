/**
 * Where a post crosses a network's limit, and what each network links when it shows a post (text/overflow.ts,
 * text/entities.ts).
 */
import { describe, expect, it } from 'vitest';
import { countText, displayUrl, entitiesFor, networkRules, overflowAt, overflowSearch } from '../../text/index.js';

describe('overflowAt', () => {
  it("is the first character past the limit, by each network's own count", () => {
    expect(overflowAt('microblog', 'a'.repeat(280) + 'bcd')).toBe(280);
    expect(overflowAt('microblog', 'a'.repeat(280))).toBeUndefined();
    // A whole grapheme cluster either fits or crosses.
    expect(overflowAt('skyblog', 'a'.repeat(299) + '👩‍👩‍👧' + 'zz')).toBe(307);
    expect(overflowAt('skyblog', 'a'.repeat(299) + 'zz👩‍👩‍👧')).toBe(300);
    // Threads counts an emoji's bytes: 498 + 4 > 500.
    expect(overflowAt('threadblog', 'a'.repeat(498) + '😀x')).toBe(498);
    // X: a long URL counts 23; the boundary is exact.
    const u = 'https://example.com/' + 'p'.repeat(400) + ' ' + 'b'.repeat(260);
    const o = overflowAt('microblog', u)!;
    expect(countText('microblog', u.slice(0, o)).valid).toBe(true);
    expect(countText('microblog', u.slice(0, o + 1)).valid).toBe(false);
    expect(o).toBe(420 + 1 + 256);
    // Mastodon with an instance's own limit.
    expect(overflowAt('fedblog', 'a'.repeat(1001), { maxCharacters: 1000 })).toBe(1000);
  });

  it('stays cheap on long text: the work follows where the overflow starts', () => {
    const t0 = performance.now();
    expect(overflowAt('microblog', 'x'.repeat(100_000))).toBe(280);
    expect(performance.now() - t0).toBeLessThan(200);
  });

  it('reads a post a little over the limit only near the point, so typing on at its end is not searched again', () => {
    // A thread's part: 400 characters with a link (23 on X), over X's 280 a little past them.
    const part =
      'Part 13: Herald keeps drafts on your computer; read https://example.com/notes/12/why-local-first-matters ' +
      'with @friend12 and #herald12. ' +
      'Each network counts differently, so every preview counts on its own rules. '.repeat(4);
    for (const platform of ['microblog', 'skyblog'] as const) {
      const { at, reach } = overflowSearch(platform, part);
      expect(at).toBe(overflowAt(platform, part));
      expect(reach, platform).toBeLessThan(part.length);
      expect(part.slice(0, reach).length).toBeGreaterThan(at!);
      // What comes after `reach` leaves the point where it was (preview/analysis.ts relies on it).
      expect(overflowAt(platform, part + ' and then we typed a few more words')).toBe(at);
    }
  });
});

describe('entitiesFor and displayUrl', () => {
  it('links what each network links', () => {
    const kinds = (p: Parameters<typeof entitiesFor>[0], t: string) =>
      entitiesFor(p, t).map((e) => `${e.kind}:${e.text}`);
    const t = 'hi @bob.x #tag example.com https://a.io/x';
    expect(kinds('microblog', t)).toEqual(['mention:@bob', 'hashtag:#tag', 'url:example.com', 'url:https://a.io/x']);
    expect(kinds('fedblog', 'hi @bob@mastodon.social #tag example.com https://a.io/x')).toEqual([
      'mention:@bob@mastodon.social',
      'hashtag:#tag',
      'url:https://a.io/x',
    ]);
    expect(kinds('skyblog', 'hi @bob and @alice.bsky.social')).toEqual(['mention:@alice.bsky.social']);
    expect(kinds('threadblog', '#one #two')).toEqual(['hashtag:#one']);
    expect(kinds('problog', '@bob #tag https://a.io')).toEqual(['hashtag:#tag', 'url:https://a.io']);
  });

  it('shortens displayed URLs as the network does', () => {
    const u = 'https://www.example.com/a/very/long/path/here';
    expect(displayUrl('microblog', u)).toBe('example.com/a/very/lon…');
    expect(displayUrl('fedblog', u)).toBe('example.com/a/very/long/path/h…');
    expect(displayUrl('problog', u)).toBe(u);
  });

  it('rules: Threads needs public media; Mastodon rules come from the instance when known', () => {
    expect(networkRules('threadblog').publicMediaOnly).toBe(true);
    expect(networkRules('problog').threads).toBe(false);
    const m = networkRules('fedblog', { maxCharacters: 5000, charactersReservedPerUrl: 30, maxMediaAttachments: 6 });
    expect([m.limit, m.images, m.fromInstance, m.links]).toEqual([5000, 6, true, 'every link counts 30 characters']);
  });
});
