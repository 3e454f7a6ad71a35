/**
 * The composer's image-size rule (renderer/src/pages/compose/Rules.tsx over text/rules.ts): a
 * photo over a network's cap is an issue only where Herald sends it as it is (X, Mastodon,
 * Threads); Bluesky's photos are made smaller on the way out (server/core/images.ts), so only an
 * animated GIF over Bluesky's cap, which is not re-encoded, stops the post there; X's cap for a
 * GIF (15 MB) is not its cap for a photo (5 MB). Sizes unknown
 * (media of a draft opened later) raise nothing.
 */
import { describe, expect, it } from 'vitest';
import { ruleIssues } from '../../renderer/src/pages/compose/Rules.js';
import type { MediaRef, Post } from '../../renderer/src/pages/compose/model.js';
import type { NetworkPreview } from '../../renderer/src/pages/compose/Previews.js';
import { networkRules, type Platform } from '../../text/index.js';

const KB = 1024;
const media = (type: MediaRef['type'], size: number | undefined, n: number): MediaRef => ({
  mediaId: `m${n}`,
  altText: 'alt',
  type,
  url: `/media/m${n}`,
  size,
});
const preview = (platform: Platform, posts: Post[]): NetworkPreview => ({
  platform,
  posts: posts.map((p) => ({ text: p.text, media: p.media })) as NetworkPreview['posts'],
  verdicts: posts.map(() => ({ count: 5, limit: 300, valid: true })),
  valid: true,
  identity: { name: 'Me', handle: '@me' } as NetworkPreview['identity'],
  opts: {},
});
const sizeIssues = (platform: Platform, m: MediaRef[]) => {
  const posts: Post[] = [{ key: 1, text: 'hello', media: m }];
  return ruleIssues([preview(platform, posts)], posts)
    .filter((i) => i.kind === 'size')
    .map((i) => i.text);
};

describe('image sizes before publishing', () => {
  it('Bluesky: a large photo is made smaller (no issue); a large GIF is an issue that says why', () => {
    const cap = networkRules('skyblog').imageBytes!;
    expect(cap).toBe(976_560);
    expect(sizeIssues('skyblog', [media('image', 3 * 1024 * KB, 1)])).toEqual([]);
    expect(sizeIssues('skyblog', [media('image', 100 * KB, 1), media('gif', 2.5 * 1024 * KB, 2)])).toEqual([
      "Media 2 of post 1, a GIF of 2.5 MB, is over Bluesky's 954 KB per image; Herald makes photos smaller, " +
        'not animated GIFs.',
    ]);
    expect(sizeIssues('skyblog', [media('gif', cap, 1)])).toEqual([]);
  });

  it('networks that take a file as it is: a photo over the cap is an issue; video and unknown sizes are not', () => {
    expect(sizeIssues('threadblog', [media('image', 9 * 1024 * KB, 1), media('image', 2 * 1024 * KB, 2)])).toEqual([
      'Image 1 of post 1 is 9 MB; Threads takes images up to 8 MB.',
    ]);
    expect(sizeIssues('microblog', [media('image', 6 * 1024 * KB, 1)])).toEqual([
      'Image 1 of post 1 is 6 MB; X takes images up to 5 MB.',
    ]);
    expect(sizeIssues('microblog', [media('video', 600 * 1024 * KB, 1), media('image', undefined, 2)])).toEqual([]);
    // X takes an animated GIF up to 15 MB, three times its cap for a photo.
    expect(sizeIssues('microblog', [media('gif', 12 * 1024 * KB, 1)])).toEqual([]);
    expect(sizeIssues('microblog', [media('gif', 16 * 1024 * KB, 1)])).toEqual([
      "Media 1 of post 1, a GIF of 16 MB, is over X's 15 MB per GIF.",
    ]);
  });
});
