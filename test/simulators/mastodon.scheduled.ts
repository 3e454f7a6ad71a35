// Scheduled statuses of the Mastodon simulator, as Mastodon behaves (docs/decisions.md §19.3; Mastodon's
// ScheduledStatus model and PostStatusService): POST /api/v1/statuses with `scheduled_at` at
// least 5 minutes ahead answers a ScheduledStatus {id, scheduled_at, params, media_attachments};
// closer than that, 422; a `scheduled_at` already past publishes at once. GET, PUT (scheduled_at)
// and DELETE /api/v1/scheduled_statuses/:id, and GET /api/v1/scheduled_statuses. At its time the
// instance deletes the ScheduledStatus (its id then answers 404) and creates the status from the
// params. Time is the simulator's own clock: due statuses publish on the next request, or when
// the test calls publishDue().
import { str, strList } from './common.js';
import type { Router, SimReply, SimRequest } from './common.js';
import type { MastodonMedia, MastodonState, MastodonStatus } from './mastodon.simulator.js';

export interface MastodonScheduled {
  id: string;
  accountId: string;
  scheduledAt: number;
  /** The fields of the POST, kept to create the status at its time. */
  params: Record<string, unknown>;
  idempotencyKey?: string;
}

/** Mastodon's ScheduledStatus::MINIMUM_OFFSET. */
export const MINIMUM_OFFSET_MS = 5 * 60_000;
/** Mastodon's ScheduledStatus::TOTAL_LIMIT and DAILY_LIMIT. */
const TOTAL_LIMIT = 300;
const DAILY_LIMIT = 25;

interface Ctx {
  state: MastodonState;
  auth(req: SimRequest, scope: string): { accountId: string; headers: Record<string, string> } | SimReply;
  now(): number;
  nextId(): string;
  createStatus(accountId: string, body: Record<string, unknown>, idempotencyKey?: string): MastodonStatus | SimReply;
  mediaView(m: MastodonMedia): unknown;
}

const err = (status: number, error: string): SimReply => ({ status, body: { error } });
const tooSoon = () => err(422, 'Validation failed: Scheduled at The scheduled date must be in the future');
/** Mastodon's timestamps carry milliseconds. */
const iso = (ms: number) => new Date(ms).toISOString();

export function registerScheduledStatuses(router: Router, ctx: Ctx) {
  const { state } = ctx;

  const view = (id: string) => {
    const s = state.scheduled.get(id);
    if (!s) return undefined;
    const p = s.params;
    return {
      id: s.id,
      scheduled_at: iso(s.scheduledAt),
      params: {
        text: str(p.status) ?? null,
        media_ids: strList(p.media_ids).length ? strList(p.media_ids) : null,
        sensitive: str(p.sensitive) === 'true' ? true : null,
        spoiler_text: str(p.spoiler_text) ?? null,
        visibility: str(p.visibility) ?? 'public',
        language: str(p.language) ?? null,
        in_reply_to_id: str(p.in_reply_to_id) ?? null,
        scheduled_at: null,
        poll: null,
        idempotency: s.idempotencyKey ?? null,
        application_id: 1,
        with_rate_limit: false,
      },
      media_attachments: strList(p.media_ids)
        .map((m) => state.media.get(m))
        .filter((m): m is MastodonMedia => !!m)
        .map(ctx.mediaView),
    };
  };

  /** The account's limits: 300 scheduled in all, 25 on one (UTC) day. */
  const overLimit = (accountId: string, at: number, except?: string): SimReply | undefined => {
    const mine = [...state.scheduled.values()].filter((s) => s.accountId === accountId && s.id !== except);
    if (mine.length >= TOTAL_LIMIT)
      return err(422, `Validation failed: Scheduled at You have exceeded the limit of ${TOTAL_LIMIT} scheduled posts`);
    const day = iso(at).slice(0, 10);
    if (mine.filter((s) => iso(s.scheduledAt).slice(0, 10) === day).length >= DAILY_LIMIT) {
      return err(
        422,
        `Validation failed: Scheduled at You have exceeded the limit of ${DAILY_LIMIT} scheduled posts for today`,
      );
    }
    return undefined;
  };

  const parseAt = (value: unknown): number | undefined => {
    const raw = str(value);
    const at = raw ? Date.parse(raw) : NaN;
    return Number.isFinite(at) ? at : undefined;
  };

  /** POST /api/v1/statuses with scheduled_at: a ScheduledStatus, a status (time past) or an error. */
  const create = (
    accountId: string,
    body: Record<string, unknown>,
    idempotencyKey?: string,
  ): MastodonScheduled | MastodonStatus | SimReply => {
    const at = parseAt(body.scheduled_at);
    if (at === undefined) return err(422, 'Validation failed: Scheduled at is invalid');
    // PostStatusService: a time already past is no schedule, the status is posted now.
    if (at <= ctx.now()) return ctx.createStatus(accountId, body, idempotencyKey);
    if (at < ctx.now() + MINIMUM_OFFSET_MS) return tooSoon();
    const text = str(body.status) ?? '';
    const mediaIds = strList(body.media_ids);
    if (!text.trim() && !mediaIds.length) return err(422, "Validation failed: Text can't be blank");
    for (const m of mediaIds)
      if (state.media.get(m)?.accountId !== accountId)
        return err(422, 'Validation failed: Media attachments are invalid');
    const limited = overLimit(accountId, at);
    if (limited) return limited;
    const s: MastodonScheduled = { id: ctx.nextId(), accountId, scheduledAt: at, params: { ...body }, idempotencyKey };
    state.scheduled.set(s.id, s);
    return s;
  };

  /** Publishes every scheduled status whose time has come (the instance's scheduler). */
  const publishDue = (): number => {
    let n = 0;
    const due = [...state.scheduled.values()]
      .filter((s) => s.scheduledAt <= ctx.now())
      .sort((a, b) => a.scheduledAt - b.scheduledAt);
    for (const s of due) {
      // Mastodon's worker destroys the ScheduledStatus, then posts from its params.
      state.scheduled.delete(s.id);
      const { scheduled_at: _at, ...params } = s.params;
      const made = ctx.createStatus(s.accountId, params, s.idempotencyKey);
      if (!('status' in made)) {
        made.createdAt = iso(s.scheduledAt);
        n += 1;
      }
    }
    return n;
  };

  const mine = (
    req: SimRequest,
  ): { accountId: string; headers: Record<string, string>; s?: MastodonScheduled } | SimReply => {
    const a = ctx.auth(req, req.method === 'GET' ? 'read:statuses' : 'write:statuses');
    if (!('accountId' in a)) return a;
    publishDue();
    const s = state.scheduled.get(req.params.id ?? '');
    return { ...a, s: s && s.accountId === a.accountId ? s : undefined };
  };

  router.on('GET', '/api/v1/scheduled_statuses', (req) => {
    const a = ctx.auth(req, 'read:statuses');
    if (!('accountId' in a)) return a;
    publishDue();
    const list = [...state.scheduled.values()]
      .filter((s) => s.accountId === a.accountId)
      .sort((x, y) => x.scheduledAt - y.scheduledAt);
    return { status: 200, body: list.map((s) => view(s.id)), headers: a.headers };
  });
  router.on('GET', '/api/v1/scheduled_statuses/:id', (req) => {
    const a = mine(req);
    if (!('accountId' in a)) return a;
    return a.s ? { status: 200, body: view(a.s.id), headers: a.headers } : err(404, 'Record not found');
  });
  router.on('PUT', '/api/v1/scheduled_statuses/:id', (req) => {
    const a = mine(req);
    if (!('accountId' in a)) return a;
    if (!a.s) return err(404, 'Record not found');
    const at = parseAt(req.body?.scheduled_at);
    if (at === undefined) return err(422, 'Validation failed: Scheduled at is invalid');
    if (at < ctx.now() + MINIMUM_OFFSET_MS) return tooSoon();
    const limited = overLimit(a.accountId, at, a.s.id);
    if (limited) return limited;
    a.s.scheduledAt = at;
    return { status: 200, body: view(a.s.id), headers: a.headers };
  });
  router.on('DELETE', '/api/v1/scheduled_statuses/:id', (req) => {
    const a = mine(req);
    if (!('accountId' in a)) return a;
    if (!a.s) return err(404, 'Record not found');
    state.scheduled.delete(a.s.id);
    return { status: 200, body: {}, headers: a.headers };
  });

  return { create, publishDue, view };
}
