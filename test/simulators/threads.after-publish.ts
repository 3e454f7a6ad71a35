// Threads simulator: DELETE /{media-id} ({success, deleted_id}) and GET /{media-id}/insights
// (views, likes, replies, reposts, quotes, each a lifetime value), as the Graph API shapes them.
import type { Router, SimReply, SimRequest } from './common.js';
import { engagementOf } from './engagement.js';
import { errors, graphError } from './threads.graph.js';
import type { ThreadsPost } from './threads.types.js';

const METRICS = ['views', 'likes', 'replies', 'reposts', 'quotes', 'shares'] as const;

export function registerThreadsAfterPublish(
  router: Router,
  ctx: { posts: ThreadsPost[]; auth: (req: SimRequest) => { userId: string } | SimReply },
): void {
  for (const v of ['', '/v1.0']) {
    router.on('DELETE', `${v}/:id`, (req) => {
      const a = ctx.auth(req);
      if (!('userId' in a)) return a;
      const i = ctx.posts.findIndex((p) => p.id === req.params.id);
      if (i < 0) return errors.unknownObject(req.params.id!);
      if (ctx.posts[i]!.userId !== a.userId)
        return graphError(403, { message: '(#10) Application does not have permission for this action', code: 10 });
      ctx.posts.splice(i, 1);
      return { status: 200, body: { success: true, deleted_id: req.params.id } };
    });
    router.on('GET', `${v}/:id/insights`, (req) => {
      const a = ctx.auth(req);
      if (!('userId' in a)) return a;
      const post = ctx.posts.find((p) => p.id === req.params.id);
      if (!post) return errors.unknownObject(req.params.id!);
      const asked = (req.query.get('metric') ?? '').split(',').filter(Boolean);
      const bad = asked.find((m) => !(METRICS as readonly string[]).includes(m));
      if (!asked.length || bad) return errors.param(`metric[${bad ?? ''}] must be one of: ${METRICS.join(', ')}`);
      const e = engagementOf(post);
      const value: Record<string, number> = { ...e, shares: 0 };
      const data = asked.map((name) => ({
        name,
        period: 'lifetime',
        values: [{ value: value[name] ?? 0 }],
        title: name[0]!.toUpperCase() + name.slice(1),
        description: `The number of ${name} of your post.`,
        id: `${post.id}/insights/${name}/lifetime`,
      }));
      return { status: 200, body: { data } };
    });
  }
}
