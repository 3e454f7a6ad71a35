/**
 * Under each image's alt text: how long it is for each chosen network, counted that network's way
 * (text/alt-text.ts, the server's own rule), red when over its limit; and a warning when an image,
 * GIF or video has no alt text at all (the setting requireAltText refuses to send it then).
 */
import { altTextCount, altTextLimit, NETWORK_LABELS, type Platform } from '../../../../text/index';

export function AltTextCounter({ alt, platforms, label }: { alt: string; platforms: Platform[]; label: string }) {
  const text = alt.trim();
  if (!text)
    return (
      <p className="small alt-missing" role="note" data-alt-missing>
        No alt text: people using screen readers will not know what {label} shows.
      </p>
    );
  return (
    <p className="small alt-counts" data-alt-counts aria-label={`Alt text length for ${label}`}>
      {platforms.map((pl) => {
        const count = altTextCount(pl, text);
        const limit = altTextLimit(pl);
        const over = count > limit;
        return (
          <span key={pl} className={over ? 'bad' : 'muted'} data-alt-count={pl} data-over={over || undefined}>
            {NETWORK_LABELS[pl]} {count}/{limit}{' '}
          </span>
        );
      })}
    </p>
  );
}
