/**
 * Post text as the network shows it: its links (with the URL displayed as the network shortens
 * it), mentions and hashtags highlighted, and everything from the character where the limit is
 * crossed marked. Only what a reader could see is drawn: text far past the limit is summed up.
 */
import { memo, useMemo } from 'react';
import { displayUrl, entitiesFor, type Platform } from '../../../../../text/index';

/** Characters drawn past the overflow point before the rest is summed up. */
const SHOWN_PAST_LIMIT = 1000;

export const RichText = memo(function RichText({ platform, text, overflow }: { platform: Platform; text: string; overflow?: number }) {
  const nodes = useMemo(() => {
    const end = overflow === undefined ? text.length : Math.min(text.length, overflow + SHOWN_PAST_LIMIT);
    const shown = text.slice(0, end);
    const out: React.ReactNode[] = [];
    let at = 0;
    let k = 0;
    // Plain text between entities, split where the overflow starts.
    const plain = (from: number, to: number) => {
      if (from >= to) return;
      if (overflow !== undefined && overflow < to) {
        if (overflow > from) out.push(shown.slice(from, overflow));
        out.push(<mark key={k++} className="pv-over" data-overflow>{shown.slice(Math.max(from, overflow), to)}</mark>);
      } else out.push(shown.slice(from, to));
    };
    for (const e of entitiesFor(platform, shown)) {
      plain(at, e.start);
      const over = overflow !== undefined && e.end > overflow;
      const label = e.kind === 'url' ? displayUrl(platform, e.text) : e.text;
      const span = <span key={k++} className={`pv-${e.kind}`} title={e.kind === 'url' ? e.text : undefined} data-entity={e.kind}>{label}</span>;
      out.push(over ? <mark key={k++} className="pv-over" data-overflow>{span}</mark> : span);
      at = e.end;
    }
    plain(at, shown.length);
    if (end < text.length) out.push(<span key={k++} className="pv-more" data-overflow-rest>{` … ${(text.length - end).toLocaleString('en')} more characters`}</span>);
    return out;
  }, [platform, text, overflow]);
  return <div className="pv-text" data-overflow-at={overflow ?? ''}>{nodes}</div>;
});
