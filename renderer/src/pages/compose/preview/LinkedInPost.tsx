/**
 * A post as LinkedIn's feed shows it: a card with the member's picture, name and "now", the text
 * folded after three lines (or about 210 characters) behind "…see more", then the media and the
 * Like / Comment / Repost / Send bar. A post past the limit is shown unfolded, so the overflow shows.
 */
import { useState } from 'react';
import { Avatar } from './Avatar';
import { Body, Icon } from './parts';
import { RichText } from './RichText';
import type { PreviewPostProps } from './types';

const FOLD_CHARS = 210;
const FOLD_LINES = 3;

/** Where LinkedIn folds `text`, or undefined when it shows whole. */
export function foldAt(text: string): number | undefined {
  let cut = text.length > FOLD_CHARS ? FOLD_CHARS : undefined;
  // The end of the third line.
  let nl = -1;
  for (let i = 0; i < FOLD_LINES; i++) {
    nl = text.indexOf('\n', nl + 1);
    if (nl === -1) break;
  }
  if (nl !== -1 && (cut === undefined || nl < cut)) cut = nl;
  if (cut === undefined || cut >= text.trimEnd().length) return undefined;
  // At a word's end when there is one near, never inside a surrogate pair.
  const space = text.lastIndexOf(' ', cut);
  if (space > cut - 30 && space > 0) cut = space;
  if ((text.charCodeAt(cut) & 0xfc00) === 0xdc00) cut -= 1;
  return cut;
}

export function LinkedInPost(p: PreviewPostProps & { overflow?: number }) {
  const [open, setOpen] = useState(false);
  const fold = p.overflow === undefined && !open ? foldAt(p.text) : undefined;
  return (
    <article className={`pv-post pv-li${p.total > 1 ? ' pv-li-has-comments' : ''}`}>
      <div className="pv-head">
        <Avatar identity={p.identity} className="pv-av" />
        <div className="pv-who">
          <b className="pv-name">{p.identity.name}</b>
          <span className="pv-dim">@{p.identity.handle}</span>
          <span className="pv-dim">
            now · <Icon name="globe" />
          </span>
        </div>
      </div>
      <Body {...p}>
        {fold === undefined ? (
          <RichText platform={p.platform} text={p.text} overflow={p.overflow} />
        ) : (
          <div className="pv-fold">
            <RichText platform={p.platform} text={p.text.slice(0, fold).trimEnd()} />
            <button type="button" className="pv-see-more" onClick={() => setOpen(true)} data-see-more>
              …see more
            </button>
          </div>
        )}
      </Body>
      {p.total > 1 && (
        <div className="pv-li-count">
          {p.total - 1} comment{p.total === 2 ? '' : 's'}
        </div>
      )}
      <div className="pv-li-bar" aria-hidden="true">
        <Icon name="like" label="Like" />
        <Icon name="reply" label="Comment" />
        <Icon name="repost" label="Repost" />
        <Icon name="send" label="Send" />
      </div>
    </article>
  );
}
