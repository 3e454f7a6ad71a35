/** A post as X shows it: round avatar, bold name, @handle · now, links shortened, the thread line. */
import { Avatar } from './Avatar';
import { Actions, Body, Gutter } from './parts';
import type { PreviewPostProps } from './types';

export function XPost(p: PreviewPostProps & { overflow?: number }) {
  return (
    <article className="pv-post pv-x">
      <Gutter avatar={<Avatar identity={p.identity} className="pv-av" />} more={p.index < p.total - 1} />
      <div className="pv-main">
        <div className="pv-head">
          <b className="pv-name">{p.identity.name}</b> <span className="pv-dim">@{p.identity.handle} · now</span>
        </div>
        <Body {...p} />
        <Actions names={['reply', 'repost', 'like', 'views', 'bookmark']} />
      </div>
    </article>
  );
}
