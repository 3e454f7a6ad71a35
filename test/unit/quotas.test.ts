/**
 * The networks' posting caps as data (server/platforms/quotas.ts), as docs/decisions.md §19.6
 * gives them, and X's one price function (domain/publishing/x-spend.ts): a URL as X finds one
 * (twitter-text's rules, bare domains too) costs the higher price.
 */
import { describe, expect, it } from 'vitest';
import { quotaWindows, X_TIERS } from '../../server/platforms/quotas.js';
import { xPostsCostUsd, xRequestCostUsd } from '../../server/domain/publishing/x-spend.js';

const DAY = 86_400_000;

describe('posting caps', () => {
  it('Threads: 250 posts and 1,000 replies per rolling 24 h per account', () => {
    expect(quotaWindows('threadblog').map((w) => [w.limit, w.windowMs, w.counts, w.scope])).toEqual([
      [250, DAY, 'post', 'account'],
      [1000, DAY, 'reply', 'account'],
    ]);
  });
  it('X by tier, per account and per app', () => {
    expect(X_TIERS).toEqual(['pay_per_use', 'free', 'basic', 'pro']);
    expect(quotaWindows('microblog').map((w) => [w.limit, w.windowMs, w.scope])).toEqual([
      [100, 15 * 60_000, 'account'],
      [10_000, DAY, 'network'],
    ]);
    expect(quotaWindows('microblog', 'free').map((w) => w.limit)).toEqual([17, 17]);
    expect(quotaWindows('microblog', 'basic').map((w) => [w.limit, w.windowMs])).toEqual([
      [100, DAY],
      [1_667, DAY],
    ]);
  });
  it('Bluesky in write points (3 a post), Mastodon per 3 h, LinkedIn none published', () => {
    expect(quotaWindows('skyblog').map((w) => [w.limit, w.windowMs, w.weight])).toEqual([
      [5_000, 3_600_000, 3],
      [35_000, DAY, 3],
    ]);
    expect(quotaWindows('fedblog').map((w) => [w.limit, w.windowMs])).toEqual([[300, 3 * 3_600_000]]);
    expect(quotaWindows('problog')).toEqual([]);
  });
});

describe('X price function', () => {
  const prices = { priceUsd: 0.015, priceWithUrlUsd: 0.2 };
  it.each([
    ['plain text', 0.015],
    ['with https://example.com/a link', 0.2],
    ['a bare example.com domain', 0.2],
    ['no url in 3.14 or e.g. this', 0.015],
  ])('%s', (text, usd) => expect(xRequestCostUsd(text, prices)).toBe(usd));
  it('a thread costs one request per post, rounded to a tenth of a cent', () => {
    expect(xPostsCostUsd([{ text: 'one' }, { text: 'two https://x.example.org' }, { text: 'three' }], prices)).toBe(
      0.23,
    );
  });
  it('each image with alt text is a Media Metadata request of its own; blank alt text is none', () => {
    const withAlt = { ...prices, mediaMetadataPriceUsd: 0.005 };
    const media = [{ altText: 'a red square' }, { altText: '  ' }, {}, { altText: 'a chart' }];
    expect(
      xPostsCostUsd(
        [
          { text: 'pictures', media },
          { text: 'more', media: [{ altText: 'x' }] },
        ],
        withAlt,
      ),
    ).toBe(0.045);
  });
});
