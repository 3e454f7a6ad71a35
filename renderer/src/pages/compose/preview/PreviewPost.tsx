/**
 * One post of one network's preview, drawn by that network's component. Memoised: a keystroke
 * redraws only the post it changed (media arrays are rebuilt on every render, so they are
 * compared by `mediaKey`).
 */
import { memo } from 'react';
import { optsKey, overflowOf } from './analysis';
import { BlueskyPost } from './BlueskyPost';
import { LinkedInComment } from './LinkedInComment';
import { LinkedInPost } from './LinkedInPost';
import { MastodonPost } from './MastodonPost';
import { ThreadsPost } from './ThreadsPost';
import type { PreviewPostProps } from './types';
import { XPost } from './XPost';

const BY_NETWORK = {
  microblog: XPost,
  skyblog: BlueskyPost,
  fedblog: MastodonPost,
  threadblog: ThreadsPost,
  problog: LinkedInPost,
} as const;

function PreviewPostView(p: PreviewPostProps) {
  // LinkedIn has no threads: a later part goes as a comment on the post.
  const Post = p.platform === 'problog' && p.index > 0 ? LinkedInComment : BY_NETWORK[p.platform];
  // Only a post that does not fit is searched for where it stops fitting.
  const overflow =
    p.verdict.count > p.verdict.limit || (!p.verdict.valid && p.verdict.reason?.includes('bytes'))
      ? overflowOf(p.platform, p.text, p.opts)
      : undefined;
  return <Post {...p} overflow={overflow} />;
}

export const PreviewPost = memo(
  PreviewPostView,
  (a, b) =>
    a.platform === b.platform &&
    a.text === b.text &&
    a.mediaKey === b.mediaKey &&
    a.verdict.count === b.verdict.count &&
    a.verdict.limit === b.verdict.limit &&
    a.verdict.valid === b.verdict.valid &&
    a.verdict.reason === b.verdict.reason &&
    (a.opts === b.opts || optsKey(a.opts) === optsKey(b.opts)) &&
    a.index === b.index &&
    a.total === b.total &&
    a.identity === b.identity &&
    a.card === b.card,
);
