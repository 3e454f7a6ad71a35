/** Pieces every network preview is built from: the post's body, its count, action icons, the thread line. */
import { memo, type ReactNode } from 'react';
import type { Platform, Verdict } from '../../../../../text/index';
import type { MediaRef } from '../model';
import { LinkCard } from './LinkCard';
import { MediaGrid } from './MediaGrid';
import { RichText } from './RichText';
import type { LinkCardData } from './types';

/** Text, media and card; `data-bubble` marks one post of what the network receives. */
export function Body({
  platform,
  index,
  text,
  media,
  mediaKey,
  card,
  overflow,
  verdict,
  children,
}: {
  platform: Platform;
  index: number;
  text: string;
  media: MediaRef[];
  mediaKey: string;
  card?: LinkCardData;
  overflow?: number;
  verdict: Verdict;
  children?: ReactNode;
}) {
  return (
    <div className="pv-body" data-bubble={index}>
      {children ?? <RichText platform={platform} text={text} overflow={overflow} />}
      <MediaGrid platform={platform} media={media} mediaKey={mediaKey} />
      {/* Images win over a card (Bluesky takes one embed; the others show the media). */}
      {media.length === 0 && <LinkCard platform={platform} card={card} />}
      <Count verdict={verdict} media={media} />
    </div>
  );
}

/** The network's count for this post (what Herald checks before sending), and missing alt text. */
export function Count({ verdict, media }: { verdict: Verdict; media: MediaRef[] }) {
  // Documents take a title, not alt text.
  const missingAlt = media.some((m) => m.type !== 'document' && !m.altText.trim());
  return (
    <div className={`small pv-count${verdict.valid ? '' : ' pv-count-bad'}`} data-valid={String(verdict.valid)}>
      {verdict.count}/{verdict.limit}
      {verdict.reason ? ` · ${verdict.reason}` : ''}
      {media.length > 0 && ` · ${media.length} media${missingAlt ? ' (add alt text)' : ''}`}
    </div>
  );
}

/** The avatar column: the picture and, when another post follows, the line down to it. */
export function Gutter({ avatar, more }: { avatar: ReactNode; more: boolean }) {
  return (
    <div className="pv-gutter">
      {avatar}
      {more && <span className="pv-line" data-thread-line />}
    </div>
  );
}

const paths: Record<string, string> = {
  reply: 'M4 5h16v10H9l-5 4z',
  repost: 'M7 7h10v4l3-3-3-3M17 17H7v-4l-3 3 3 3',
  like: 'M12 20s-7-4.4-7-10a4 4 0 0 1 7-2.6A4 4 0 0 1 19 10c0 5.6-7 10-7 10z',
  share: 'M12 4v11M7 9l5-5 5 5M5 15v4h14v-4',
  bookmark: 'M7 4h10v16l-5-4-5 4z',
  views: 'M5 20V12M10 20V6M15 20v-9M20 20V9',
  more: 'M6 12h.01M12 12h.01M18 12h.01',
  send: 'M4 12l16-8-6 16-3-7z',
  globe: 'M12 3a9 9 0 1 0 0 18a9 9 0 1 0 0-18M3 12h18M12 3c3 3 3 15 0 18M12 3c-3 3-3 15 0 18',
};

export function Icon({ name, label }: { name: keyof typeof paths | string; label?: string }) {
  return (
    <span className="pv-icon" aria-hidden={label ? undefined : true}>
      <svg
        viewBox="0 0 24 24"
        width="18"
        height="18"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.8"
        strokeLinecap="round"
        strokeLinejoin="round"
      >
        <path d={paths[name]} />
      </svg>
      {label && <span>{label}</span>}
    </span>
  );
}

/** Memoised: the icons never change, and a thread draws them for every post of every network. */
export const Actions = memo(
  function Actions({ names }: { names: string[] }) {
    return (
      <div className="pv-actions" aria-hidden="true">
        {names.map((n) => (
          <Icon key={n} name={n} />
        ))}
      </div>
    );
  },
  (a, b) => a.names.join() === b.names.join(),
);
