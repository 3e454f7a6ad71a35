// X simulator: DELETE /2/tweets/:id and GET /2/tweets?ids= with public_metrics (a deleted or
// unknown id comes back in `errors` as a resource-not-found, as X answers).
import type { Router, SimReply, SimRequest } from './common.js';
import { engagementOf } from './engagement.js';
import type { XPost } from './x.types.js';

const PROBLEM = 'https://api.x.com/2/problems/';

export function registerXAfterPublish(
  router: Router,
  ctx: {
    posts: XPost[];
    auth: (req: SimRequest, scope: string) => { userId: string } | SimReply;
    ok: (req: SimRequest, userId: string, status: number, body: unknown) => SimReply;
    problem: (status: number, title: string, detail: string, type?: string) => SimReply;
  },
): { reads: string[][] } {
  const reads: string[][] = [];
  router.on('DELETE', '/2/tweets/:id', (req) => {
    const a = ctx.auth(req, 'tweet.read tweet.write users.read');
    if (!('userId' in a)) return a;
    const i = ctx.posts.findIndex((p) => p.id === req.params.id);
    if (i < 0) return ctx.ok(req, a.userId, 200, { data: { deleted: false } });
    if (ctx.posts[i]!.authorId !== a.userId)
      return ctx.problem(403, 'Forbidden', 'You are not allowed to delete this Tweet.');
    ctx.posts.splice(i, 1);
    return ctx.ok(req, a.userId, 200, { data: { deleted: true } });
  });
  router.on('GET', '/2/tweets', (req) => {
    const a = ctx.auth(req, 'tweet.read users.read');
    if (!('userId' in a)) return a;
    const ids = (req.query.get('ids') ?? '').split(',').filter(Boolean);
    if (!ids.length || ids.length > 100)
      return ctx.problem(400, 'Invalid Request', 'The `ids` query parameter takes 1 to 100 ids.');
    reads.push(ids);
    const fields = (req.query.get('tweet.fields') ?? '').split(',');
    const data: unknown[] = [];
    const errors: unknown[] = [];
    for (const id of ids) {
      const p = ctx.posts.find((x) => x.id === id);
      if (!p) {
        errors.push({
          value: id,
          detail: `Could not find tweet with ids: [${id}].`,
          title: 'Not Found Error',
          resource_type: 'tweet',
          parameter: 'ids',
          resource_id: id,
          type: `${PROBLEM}resource-not-found`,
        });
        continue;
      }
      const e = engagementOf(p);
      data.push({
        id: p.id,
        text: p.text,
        edit_history_tweet_ids: [p.id],
        ...(fields.includes('public_metrics')
          ? {
              public_metrics: {
                retweet_count: e.reposts,
                reply_count: e.replies,
                like_count: e.likes,
                quote_count: e.quotes,
                bookmark_count: 0,
                impression_count: e.views,
              },
            }
          : {}),
      });
    }
    return ctx.ok(req, a.userId, 200, { ...(data.length ? { data } : {}), ...(errors.length ? { errors } : {}) });
  });
  return { reads };
}
