/**
 * A link card as the network draws it: X and Threads a picture with the domain, the others a box with title and
 * description.
 */
import { memo } from 'react';
import type { Platform } from '../../../../../text/index';
import { showable } from './Avatar';
import type { LinkCardData } from './types';

const host = (url: string) => {
  try {
    return new URL(url).hostname.replace(/^www\./, '');
  } catch {
    return url;
  }
};

export const LinkCard = memo(function LinkCard({ platform, card }: { platform: Platform; card?: LinkCardData }) {
  if (!card) return null;
  const image = showable(card.imageUrl) ? <img className="pv-card-img" src={card.imageUrl} alt="" /> : null;
  return (
    <div className={`pv-card pv-card-${platform}`} data-link-card={card.url}>
      {image}
      <div className="pv-card-body">
        {platform !== 'microblog' && <div className="pv-card-site">{card.siteName || host(card.url)}</div>}
        <div className="pv-card-title">{card.title}</div>
        {platform !== 'microblog' && platform !== 'threadblog' && card.description && (
          <div className="pv-card-desc">{card.description}</div>
        )}
        {platform === 'microblog' && <div className="pv-card-site">From {host(card.url)}</div>}
      </div>
    </div>
  );
});
