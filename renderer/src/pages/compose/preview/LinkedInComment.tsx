/**
 * A later part of a thread on LinkedIn, which has no threads: a comment under the post, drawn as
 * LinkedIn's feed draws one (the member's small picture, a grey bubble with the name, "Author" and
 * the text, Like · Reply under it). Its count is against the comment's limit (1,250).
 */
import { Avatar } from './Avatar';
import { Body } from './parts';
import type { PreviewPostProps } from './types';
import './linkedin-comments.css';

export function LinkedInComment(p: PreviewPostProps & { overflow?: number }) {
  return (
    <article className="pv-post pv-li-comment" data-comment={p.index}>
      <Avatar identity={p.identity} className="pv-av pv-li-cav" />
      <div className="pv-li-cmain">
        <div className="pv-li-bubble">
          <div className="pv-head">
            <b className="pv-name">{p.identity.name}</b>
            <span className="pv-dim">• Author</span>
            <span className="pv-dim pv-time">now</span>
          </div>
          <Body {...p} />
        </div>
        <div className="pv-li-cbar pv-dim" aria-hidden="true">
          Like · Reply
        </div>
      </div>
    </article>
  );
}
