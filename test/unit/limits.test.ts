/**
 * checkParts counts a text once per network and set of limits, and still judges each account by
 * its own limits: two Mastodon accounts on instances of 500 and 1,000 characters get different
 * verdicts on the same 700-character post.
 */
import { describe, expect, it } from 'vitest';
import type { AccountRow } from '../../server/domain/accounts/accounts.service.js';
import { checkParts } from '../../server/domain/publishing/limits.js';
import { HeraldError } from '../../server/core/errors.js';

const account = (id: string, platform: string, meta: Record<string, unknown>) =>
  ({ id, platform, username: id, meta: JSON.stringify(meta) }) as unknown as AccountRow;

function problems(targets: { account: AccountRow; text: string }[]): string[] {
  try {
    checkParts(targets.map(({ account: a, text }) => ({ account: a, parts: [{ text, media: [] }] })));
    return [];
  } catch (err) {
    if (!(err instanceof HeraldError)) throw err;
    return (err.details ?? []).map((d) => d.message);
  }
}

describe('checkParts', () => {
  it('judges each account by its own limits when several share a network', () => {
    const text = 'a'.repeat(700);
    expect(
      problems([
        { account: account('small', 'fedblog', { max_characters: 500 }), text },
        { account: account('big', 'fedblog', { max_characters: 1000 }), text },
        { account: account('small2', 'fedblog', { max_characters: 500 }), text },
        { account: account('default', 'fedblog', {}), text },
      ]),
    ).toEqual([
      'Mastodon @small: the post does not fit (700 of 500 characters on this Mastodon instance)',
      'Mastodon @small2: the post does not fit (700 of 500 characters on this Mastodon instance)',
      'Mastodon @default: the post does not fit (700 of 500 characters on this Mastodon instance)',
    ]);
  });

  it('judges each network by its own rules for the same text', () => {
    const text = 'b'.repeat(301);
    expect(
      problems([
        { account: account('x', 'microblog', {}), text },
        { account: account('x-premium', 'microblog', { max_characters: 25_000 }), text },
        { account: account('m', 'fedblog', {}), text },
        { account: account('bsky', 'skyblog', {}), text },
      ]),
    ).toEqual([
      'X @x: the post does not fit (301 of 280 weighted characters on X)',
      expect.stringMatching(/^Bluesky @bsky: the post does not fit \(301 of 300 /),
    ]);
  });
});
