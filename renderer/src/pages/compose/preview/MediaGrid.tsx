/**
 * A post's images laid out as the network lays them out: one alone, two side by side, three as
 * one tall and two stacked (LinkedIn: one wide over two), four in a square; Threads scrolls them
 * sideways; LinkedIn shows at most five and a "+N" on the last. An ALT badge marks described ones. A
 * document is a tile with its title and pages.
 */
import { memo } from 'react';
import type { Platform } from '../../../../../text/index';
import type { MediaRef } from '../model';
import { showable } from './Avatar';

/** LinkedIn shows a document as a page viewer: drawn as a tile with its title and pages, never as an image. */
function DocTile({ m }: { m: MediaRef }) {
  return (
    <div className="pv-tile" data-media-tile={m.mediaId} data-doc-tile>
      <div className="pv-img pv-doc">
        <span className="pv-doc-kind">PDF{m.pages ? ` · ${m.pages} ${m.pages === 1 ? 'page' : 'pages'}` : ''}</span>
        <span className="pv-doc-title">{m.title?.trim() || 'Document'}</span>
      </div>
    </div>
  );
}

function Tile({ m, more }: { m: MediaRef; more?: number }) {
  if (m.type === 'document') return <DocTile m={m} />;
  return (
    <div className="pv-tile" data-media-tile={m.mediaId}>
      {showable(m.url) ? (
        m.type === 'video' ? (
          <video src={m.url} muted className="pv-img" />
        ) : (
          <img src={m.url} alt={m.altText} className="pv-img" />
        )
      ) : (
        <span className="pv-img pv-missing" />
      )}
      {m.altText.trim() && (
        <span className="pv-alt" data-alt-badge title={m.altText}>
          ALT
        </span>
      )}
      {more ? (
        <span className="pv-plus" aria-label={`${more} more`}>
          +{more}
        </span>
      ) : null}
    </div>
  );
}

export const MediaGrid = memo(function MediaGrid({
  platform,
  media,
}: {
  platform: Platform;
  media: MediaRef[];
  mediaKey: string;
}) {
  // A document goes to LinkedIn only: the other networks' previews leave it out.
  if (platform !== 'problog') media = media.filter((m) => m.type !== 'document');
  if (media.length === 0) return null;
  if (platform === 'threadblog' && media.length > 1) {
    return (
      <div className="pv-media pv-carousel" data-grid="carousel" data-count={media.length}>
        {media.map((m) => (
          <Tile key={m.mediaId} m={m} />
        ))}
      </div>
    );
  }
  const shown = platform === 'problog' ? media.slice(0, 5) : media.slice(0, 4);
  const layout = platform === 'problog' ? `li${Math.min(shown.length, 5)}` : `n${shown.length}`;
  return (
    <div className={`pv-media pv-grid pv-${layout}`} data-grid={shown.length} data-count={media.length}>
      {shown.map((m, i) => (
        <Tile
          key={m.mediaId}
          m={m}
          more={i === shown.length - 1 && media.length > shown.length ? media.length - shown.length : undefined}
        />
      ))}
    </div>
  );
});
