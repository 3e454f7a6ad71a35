// LinkedIn simulator: DELETE /rest/posts/{urn} (204), a PARTIAL_UPDATE of the commentary
// (POST /rest/posts/{urn} with X-RestLi-Method), and member post analytics
// (GET /rest/memberCreatorPostAnalytics?q=entity, one metric type a call, scope r_member_postAnalytics).
import type { Router, SimReply, SimRequest } from './common.js';
import { engagementOf } from './engagement.js';
import type { LinkedInPost, LinkedInState } from './linkedin.simulator.js';
import { applyLittleText } from './linkedin.text.js';

const TYPES = {
  IMPRESSION: 'views',
  MEMBERS_REACHED: 'views',
  REACTION: 'likes',
  COMMENT: 'replies',
  RESHARE: 'reposts',
};

export function registerLinkedInAfterPublish(
  router: Router,
  ctx: {
    state: LinkedInState;
    rest: (req: SimRequest) => { sub: string; urn: string } | SimReply;
    li: (status: number, message: string, extra?: Record<string, unknown>) => SimReply;
  },
): { analyticsReads: string[] } {
  const analyticsReads: string[] = [];
  const own = (req: SimRequest): LinkedInPost | SimReply => {
    const a = ctx.rest(req);
    if (!('sub' in a)) return a;
    const p = ctx.state.posts.find((x) => x.urn === req.params.urn);
    if (!p) return ctx.li(404, `Not Found: ${req.params.urn}`, { code: 'NOT_FOUND' });
    if (p.author !== a.urn)
      return ctx.li(403, 'Not enough permissions to access: partnerApiPostsExternal.DELETE', {
        serviceErrorCode: 100,
        code: 'ACCESS_DENIED',
      });
    return p;
  };
  router.on('DELETE', '/rest/posts/:urn', (req) => {
    const p = own(req);
    if (!('urn' in p)) return p;
    ctx.state.posts.splice(ctx.state.posts.indexOf(p), 1);
    return { status: 204, headers: { 'x-restli-protocol-version': '2.0.0' } };
  });
  router.on('POST', '/rest/posts/:urn', (req) => {
    if (String(req.headers['x-restli-method'] ?? '').toUpperCase() !== 'PARTIAL_UPDATE')
      return ctx.li(400, 'X-RestLi-Method PARTIAL_UPDATE is required', { code: 'ILLEGAL_ARGUMENT' });
    const p = own(req);
    if (!('urn' in p)) return p;
    const commentary = req.body?.patch?.$set?.commentary;
    if (typeof commentary !== 'string') return ctx.li(422, 'ERROR :: /patch :: only $set commentary is supported');
    const little = applyLittleText(commentary);
    if (little.visible.length > 3000) return ctx.li(422, 'ERROR :: /commentary :: length exceeds 3000 characters');
    p.commentary = commentary;
    p.keptCommentary = little.kept;
    p.truncated = little.truncated;
    return { status: 204, headers: { 'x-restli-protocol-version': '2.0.0' } };
  });
  router.on('GET', '/rest/memberCreatorPostAnalytics', (req) => {
    const a = ctx.rest(req);
    if (!('sub' in a)) return a;
    const token = ctx.state.tokens.get(req.bearer ?? '');
    if (!token?.scopes.includes('r_member_postAnalytics'))
      return ctx.li(403, 'Not enough permissions to access: memberCreatorPostAnalytics.FINDER-entity', {
        serviceErrorCode: 100,
        code: 'ACCESS_DENIED',
      });
    const type = req.query.get('queryType') ?? '';
    const entity = /^\((share|ugc):(.+)\)$/.exec(req.query.get('entity') ?? '');
    if (req.query.get('q') !== 'entity' || !entity || !(type in TYPES))
      return ctx.li(400, 'Invalid query parameters passed to request', { code: 'ILLEGAL_ARGUMENT' });
    const urn = decodeURIComponent(entity[2]!);
    analyticsReads.push(`${urn} ${type}`);
    const p = ctx.state.posts.find((x) => x.urn === urn);
    if (!p) return ctx.li(404, `Not Found: ${urn}`, { code: 'NOT_FOUND' });
    const e = engagementOf(p) as unknown as Record<string, number>;
    const key = entity[1] === 'ugc' ? 'ugc' : 'share';
    return {
      status: 200,
      body: {
        paging: { start: 0, count: 10, links: [] },
        elements: [
          {
            count: e[TYPES[type as keyof typeof TYPES]] ?? 0,
            metricType: { 'com.linkedin.adsexternalapi.memberanalytics.v1.CreatorPostAnalyticsMetricTypeV1': type },
            targetEntity: { [key]: urn },
          },
        ],
      },
    };
  });
  return { analyticsReads };
}
