/** A post as Threads shows it: small round avatar, username and time, images side by side, the thread line. */
import { Avatar } from './Avatar';
import { Actions, Body, Gutter } from './parts';
import type { PreviewPostProps } from './types';

export function ThreadsPost(p: PreviewPostProps & { overflow?: number }) {
  return (
    <article className="pv-post pv-threads">
      <Gutter avatar={<Avatar identity={p.identity} className="pv-av" />} more={p.index < p.total - 1} />
      <div className="pv-main">
        <div className="pv-head">
          <b className="pv-name">{p.identity.handle}</b> <span className="pv-dim">now</span>
          <span className="pv-dim pv-time">···</span>
        </div>
        <Body {...p} />
        <Actions names={['like', 'reply', 'repost', 'send']} />
      </div>
    </article>
  );
}
