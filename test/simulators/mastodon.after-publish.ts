// Mastodon simulator: DELETE /api/v1/statuses/:id (answers the deleted status, 404 when there is
// none) and PUT /api/v1/statuses/:id (an edit: `edited_at` set, the text replaced). The counts a
// status carries come from engagement.ts through the status view.
import type { Router, SimReply, SimRequest } from './common.js';
import type { MastodonState, MastodonStatus } from './mastodon.simulator.js';

export function registerMastodonAfterPublish(
  router: Router,
  ctx: {
    state: MastodonState;
    auth: (req: SimRequest, scope: string) => { accountId: string; headers: Record<string, string> } | SimReply;
    err: (status: number, error: string) => SimReply;
    statusView: (s: MastodonStatus) => Record<string, unknown>;
    maxCharacters: number;
  },
): void {
  const own = (req: SimRequest): { s: MastodonStatus; headers: Record<string, string> } | SimReply => {
    const a = ctx.auth(req, 'write:statuses');
    if (!('accountId' in a)) return a;
    const s = ctx.state.statuses.find((x) => x.id === req.params.id);
    if (!s || s.accountId !== a.accountId) return ctx.err(404, 'Record not found');
    return { s, headers: a.headers };
  };
  router.on('DELETE', '/api/v1/statuses/:id', (req) => {
    const o = own(req);
    if (!('s' in o)) return o;
    const view = { ...ctx.statusView(o.s), text: o.s.text };
    ctx.state.statuses.splice(ctx.state.statuses.indexOf(o.s), 1);
    return { status: 200, body: view, headers: o.headers };
  });
  router.on('PUT', '/api/v1/statuses/:id', (req) => {
    const o = own(req);
    if (!('s' in o)) return o;
    const text = typeof req.body?.status === 'string' ? req.body.status : '';
    if (!text.trim()) return ctx.err(422, "Validation failed: Text can't be blank");
    if ([...text].length > ctx.maxCharacters)
      return ctx.err(422, `Validation failed: Text character limit of ${ctx.maxCharacters} exceeded`);
    o.s.text = text;
    (o.s as MastodonStatus & { editedAt?: string }).editedAt = new Date().toISOString();
    return { status: 200, body: ctx.statusView(o.s), headers: o.headers };
  });
}
