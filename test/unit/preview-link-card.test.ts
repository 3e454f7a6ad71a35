/**
 * The previews' link card (issue #22 item 1; the card data comes from GET /link-preview, wired by
 * the link-card work): drawn when a post has one, nothing when it has none, and never an image
 * the page's CSP would refuse (only this app's own or data: URLs).
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { LinkCard } from '../../renderer/src/pages/compose/preview/LinkCard';
import { PreviewPost } from '../../renderer/src/pages/compose/preview/PreviewPost';
import { countText, type Platform } from '../../text/index.js';

const card = {
  url: 'https://example.com/post',
  title: 'A local-first publisher',
  description: 'Write once, publish everywhere.',
  imageUrl: 'data:image/png;base64,iVBORw0KGgo=',
  siteName: 'Example',
};

describe('link card', () => {
  it('renders title, site and description as each network shows them; nothing without a card', () => {
    const li = renderToStaticMarkup(createElement(LinkCard, { platform: 'problog', card }));
    expect(li).toContain('data-link-card="https://example.com/post"');
    expect(li).toContain('A local-first publisher');
    expect(li).toContain('Write once, publish everywhere.');
    expect(li).toContain('Example');
    expect(li).toContain('<img class="pv-card-img" src="data:image/png');
    // X: a picture with the title and "From example.com".
    const x = renderToStaticMarkup(createElement(LinkCard, { platform: 'microblog', card }));
    expect(x).toContain('From example.com');
    expect(x).not.toContain('Write once');
    expect(renderToStaticMarkup(createElement(LinkCard, { platform: 'skyblog', card: undefined }))).toBe('');
    // A remote image is not drawn (img-src 'self' data: blob:).
    expect(
      renderToStaticMarkup(
        createElement(LinkCard, { platform: 'skyblog', card: { ...card, imageUrl: 'https://cdn.example/x.png' } }),
      ),
    ).not.toContain('<img');
  });

  it('a post with a card shows it, a post with images shows the images instead', () => {
    const base = {
      identity: { name: 'Ada', handle: 'ada' },
      text: 'Read https://example.com/post',
      mediaKey: '',
      opts: {},
      index: 0,
      total: 1,
    };
    for (const platform of ['microblog', 'skyblog', 'fedblog', 'threadblog', 'problog'] as Platform[]) {
      const verdict = countText(platform, base.text);
      const html = renderToStaticMarkup(createElement(PreviewPost, { ...base, platform, verdict, media: [], card }));
      expect(html, platform).toContain('data-link-card');
      const none = renderToStaticMarkup(createElement(PreviewPost, { ...base, platform, verdict, media: [] }));
      expect(none, platform).not.toContain('data-link-card');
      const withImage = renderToStaticMarkup(
        createElement(PreviewPost, {
          ...base,
          platform,
          verdict,
          media: [{ mediaId: 'm1', altText: '', type: 'image', url: 'data:image/png;base64,x' }],
          mediaKey: 'm1',
          card,
        }),
      );
      expect(withImage, platform).not.toContain('data-link-card');
    }
  });
});
