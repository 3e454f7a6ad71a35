/**
 * Post text as the network shows it: its links (with the URL displayed as the network shortens
 * it), mentions and hashtags highlighted, and everything from the character where the limit is
 * crossed marked. Only what a reader could see is drawn: text far past the limit is summed up.
 */
import { memo, useMemo } from 'react';
import { displayUrl, type Platform } from '../../../../../text/index';
import { entitiesOf } from './analysis';

/** Characters drawn past the overflow point before the rest is summed up. */
const SHOWN_PAST_LIMIT = 1000;

const shownEnd = (text: string, overflow?: number) =>
  overflow === undefined ? text.length : Math.min(text.length, overflow + SHOWN_PAST_LIMIT);

export const RichText = memo(function RichText({
  platform,
  text,
  overflow,
}: {
  platform: Platform;
  text: string;
  overflow?: number;
}) {
  const nodes = useMemo(() => {
    const end = shownEnd(text, overflow);
    const shown = text.slice(0, end);
    const out: React.ReactNode[] = [];
    let at = 0;
    let k = 0;
    // Plain text between entities, split where the overflow starts.
    const plain = (from: number, to: number) => {
      if (from >= to) return;
      if (overflow !== undefined && overflow < to) {
        if (overflow > from) out.push(shown.slice(from, overflow));
        out.push(
          <mark key={k++} className="pv-over" data-overflow>
            {shown.slice(Math.max(from, overflow), to)}
          </mark>,
        );
      } else out.push(shown.slice(from, to));
    };
    // The whole text's entities (found once for every network), those that end in what is shown.
    for (const e of entitiesOf(platform, text)) {
      if (e.end > end) break;
      plain(at, e.start);
      const over = overflow !== undefined && e.end > overflow;
      const label = e.kind === 'url' ? displayUrl(platform, e.text) : e.text;
      const span = (
        <span key={k++} className={`pv-${e.kind}`} title={e.kind === 'url' ? e.text : undefined} data-entity={e.kind}>
          {label}
        </span>
      );
      out.push(
        over ? (
          <mark key={k++} className="pv-over" data-overflow>
            {span}
          </mark>
        ) : (
          span
        ),
      );
      at = e.end;
    }
    plain(at, shown.length);
    return out;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [platform, overflow === undefined ? text : text.slice(0, shownEnd(text, overflow)), overflow]);
  const rest = text.length - shownEnd(text, overflow);
  // The count of what is not drawn sits in its own block: typing past the limit changes only it,
  // and the drawn text (thousands of characters) is not laid out again.
  return (
    <>
      <div className="pv-text" data-overflow-at={overflow ?? ''}>
        {nodes}
      </div>
      {rest > 0 && <div className="pv-more" data-overflow-rest>{`… ${rest.toLocaleString('en')} more characters`}</div>}
    </>
  );
});
