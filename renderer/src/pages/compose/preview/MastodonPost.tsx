/** A post as Mastodon shows it: rounded-square avatar, name over @user@instance, the time on the right. */
import { Avatar } from './Avatar';
import { Actions, Body, Gutter } from './parts';
import type { PreviewPostProps } from './types';

export function MastodonPost(p: PreviewPostProps & { overflow?: number }) {
  const handle = p.identity.server ? `@${p.identity.handle}@${p.identity.server}` : `@${p.identity.handle}`;
  return (
    <article className="pv-post pv-masto">
      <Gutter avatar={<Avatar identity={p.identity} className="pv-av" />} more={p.index < p.total - 1} />
      <div className="pv-main">
        <div className="pv-head pv-stack">
          <span className="pv-who">
            <b className="pv-name">{p.identity.name}</b>
            <span className="pv-dim">{handle}</span>
          </span>
          <span className="pv-dim pv-time">now</span>
        </div>
        <Body {...p} />
        <Actions names={['reply', 'repost', 'like', 'bookmark', 'more']} />
      </div>
    </article>
  );
}
