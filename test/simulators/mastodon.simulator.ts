// Mastodon simulator: app registration, OAuth (PKCE optional), verify_credentials, instance v1/v2,
// media v2 with async processing, statuses with Idempotency-Key, account statuses.
// Apps and OAuth are in mastodon.oauth.ts, media in mastodon.media.ts.
import { checkMastoOptions, type MastoStatusOptions } from './mastodon.options.js';
import { Router, startSimServer, str, strList, PostCounter } from './common.js';
import type { SimReply, SimRequest, Faults } from './common.js';
import { registerMastodonInstance } from './mastodon.instance.js';
import { mastodonViews } from './mastodon.views.js';
import { registerScheduledStatuses, type MastodonScheduled } from './mastodon.scheduled.js';
import { registerMastodonAfterPublish } from './mastodon.after-publish.js';
import { registerMastodonOAuth } from './mastodon.oauth.js';
import { registerMastodonMedia } from './mastodon.media.js';

export interface MastodonAccount {
  id: string;
  username: string;
  displayName: string;
  followers: number;
  following: number;
}

export interface MastodonMedia {
  id: string;
  accountId: string;
  type: 'image' | 'video' | 'gifv' | 'audio' | 'unknown';
  mime: string;
  bytes: Buffer;
  description: string | null;
  pollsLeft: number;
  failed: boolean;
}

export interface MastodonStatus {
  id: string;
  accountId: string;
  text: string;
  inReplyToId: string | null;
  mediaIds: string[];
  visibility: string;
  language: string | null;
  spoilerText: string;
  sensitive: boolean;
  poll?: MastoStatusOptions['poll'];
  quotedStatusId?: string;
  quoteApprovalPolicy?: string;
  idempotencyKey?: string;
  createdAt: string;
  seq: number;
}

export interface MastodonApp {
  name: string;
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
  scopes: string[];
}

export interface MastodonSimulatorOptions {
  /** Latency added to every request, ms (fan-out benchmarks); also settable later via faults.latencyMs. */
  latencyMs?: number;
  maxCharacters?: number;
  /** GET /api/v1/media/:id answers 206 this many times for video before 200 (default 1). */
  processingPolls?: number;
  idempotencyWindowMs?: number;
  domain?: string;
  /** The instance's clock (scheduled statuses publish by it); default Date.now. */
  now?: () => number;
}

export interface MastodonState {
  accounts: MastodonAccount[];
  apps: MastodonApp[];
  statuses: MastodonStatus[];
  media: Map<string, MastodonMedia>;
  tokens: Map<string, { accountId: string; scopes: string[]; clientId: string }>;
  issuedTokens: string[];
  counter: PostCounter;
  idempotentReplays: number;
  /** Scheduled statuses not yet published (POST /api/v1/statuses with scheduled_at). */
  scheduled: Map<string, MastodonScheduled>;
}

export interface MastodonSimulator {
  url: string;
  port: number;
  close(): Promise<void>;
  faults: Faults;
  requests: string[];
  state: MastodonState;
  authorizeUrl: string;
  tokenUrl: string;
  addAccount(a: { username: string; displayName?: string; followers?: number; following?: number }): MastodonAccount;
  setCurrentUser(username: string): void;
  /** Register an app directly (same as POST /api/v1/apps). */
  registerApp(redirectUris: string[], scopes?: string): MastodonApp;
  /** Revoke every token (tokens never expire otherwise). */
  revokeAllTokens(): void;
  statusesBy(username: string): MastodonStatus[];
  countPosts(username: string, text: string): number;
  /** Publishes every scheduled status due by the instance's clock (requests do it too); answers how many. */
  publishDue(): number;
}

const err = (status: number, error: string, headers?: Record<string, string>): SimReply => ({
  status,
  body: { error },
  headers,
});

export async function startMastodonSimulator(opts: MastodonSimulatorOptions = {}): Promise<MastodonSimulator> {
  const maxChars = opts.maxCharacters ?? 500;
  const windowMs = opts.idempotencyWindowMs ?? 3600_000;
  const state: MastodonState = {
    accounts: [],
    apps: [],
    statuses: [],
    media: new Map(),
    tokens: new Map(),
    issuedTokens: [],
    counter: new PostCounter(),
    idempotentReplays: 0,
    scheduled: new Map(),
  };
  const now = opts.now ?? Date.now;
  let base = '';
  let seq = 0;
  let idSeq = 113_000_000_000_000_000n;
  const nextId = () => String((idSeq += 65_537n));
  let currentUser: string | undefined;
  const idem = new Map<string, { statusId: string; scheduledId?: string; at: number }>();
  const rl = new Map<string, { reset: number; used: number }>();

  const rateHeaders = (key: string, limit: number, periodSec: number): Record<string, string> => {
    const now = Date.now();
    let w = rl.get(key);
    if (!w || w.reset <= now) rl.set(key, (w = { reset: now + periodSec * 1000, used: 0 }));
    w.used += 1;
    // ISO 8601 with microseconds, as Mastodon sends it.
    const iso = new Date(w.reset).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
    return {
      'X-RateLimit-Limit': String(limit),
      'X-RateLimit-Remaining': String(Math.max(0, limit - w.used)),
      'X-RateLimit-Reset': iso,
    };
  };

  const auth = (req: SimRequest, scope: string): { accountId: string; headers: Record<string, string> } | SimReply => {
    const t = req.bearer ? state.tokens.get(req.bearer) : undefined;
    if (!t) return err(401, 'The access token is invalid');
    const [family] = scope.split(':');
    const ok = t.scopes.some(
      (s) => s === scope || s === family || (scope === 'profile' && (s === 'read' || s === 'read:accounts')),
    );
    if (!ok) return err(403, 'This action is outside the authorized scopes');
    return { accountId: t.accountId, headers: rateHeaders(`token:${req.bearer}`, 300, 300) };
  };

  const { accountView, mediaView, statusView } = mastodonViews(() => base, state);

  const router = new Router();

  const { registerApp } = registerMastodonOAuth(router, { state, err, currentUser: () => currentUser });

  // --- Accounts and instance ---------------------------------------------------------------
  router.on('GET', '/api/v1/accounts/verify_credentials', (req) => {
    const a = auth(req, 'profile');
    if (!('accountId' in a)) return a;
    const acct = state.accounts.find((x) => x.id === a.accountId);
    if (!acct) return err(422, 'This method requires an authenticated user');
    return {
      status: 200,
      body: {
        ...accountView(acct),
        source: { privacy: 'public', sensitive: false, language: null, note: '', fields: [] },
      },
      headers: a.headers,
    };
  });
  registerMastodonInstance(router, {
    base: () => base,
    maxChars,
    domain: opts.domain,
    accountCount: () => state.accounts.length,
  });
  router.on('GET', '/api/v1/accounts/:id/statuses', (req) => {
    scheduled.publishDue();
    const a = auth(req, 'read:statuses');
    const acct = state.accounts.find((x) => x.id === req.params.id);
    if (!acct) return err(404, 'Record not found');
    const limit = Math.min(40, Number(req.query.get('limit') ?? 20));
    const list = state.statuses
      .filter((s) => s.accountId === acct.id)
      .sort((x, y) => y.seq - x.seq)
      .slice(0, limit);
    return { status: 200, body: list.map(statusView), headers: 'accountId' in a ? a.headers : {} };
  });

  registerMastodonMedia(router, {
    state,
    auth,
    err,
    nextId,
    mediaView,
    rateHeaders,
    processingPolls: opts.processingPolls ?? 1,
  });

  // --- Statuses ----------------------------------------------------------------------------
  /**
   * Checks and creates a status from POST /api/v1/statuses' fields (also what a scheduled status
   * publishes at its time): the status, or the error reply the instance gives.
   */
  const createStatus = (
    accountId: string,
    b: Record<string, unknown>,
    idempotencyKey?: string,
  ): MastodonStatus | SimReply => {
    const text = str(b.status) ?? '';
    const mediaIds = strList(b.media_ids);
    if (!text.trim() && !mediaIds.length) return err(422, "Validation failed: Text can't be blank");
    const counted =
      [...new Intl.Segmenter().segment(text.replace(/https?:\/\/\S+/g, 'x'.repeat(23)))].length +
      (str(b.spoiler_text) ?? '').length;
    if (counted > maxChars) return err(422, `Validation failed: Text character limit of ${maxChars} exceeded`);
    if (mediaIds.length > 4) return err(422, 'Validation failed: Media attachments exceed the limit of 4');
    for (const id of mediaIds) {
      const m = state.media.get(id);
      if (!m || m.accountId !== accountId) return err(422, 'Validation failed: Media attachments are invalid');
      if (m.pollsLeft > 0)
        return err(422, 'Cannot attach files that have not finished processing. Try again in a moment!');
    }
    const inReplyToId = str(b.in_reply_to_id) ?? null;
    if (inReplyToId && !state.statuses.some((s) => s.id === inReplyToId)) return err(404, 'Record not found');
    const checked = checkMastoOptions(b, mediaIds.length > 0, (id) => state.statuses.some((x) => x.id === id));
    if ('refused' in checked) return err(422, checked.refused);
    const visibility = str(b.visibility) ?? 'public';
    if (!['public', 'unlisted', 'private', 'direct'].includes(visibility))
      return err(422, 'Validation failed: Visibility is not included in the list');
    const s: MastodonStatus = {
      id: nextId(),
      accountId,
      text,
      inReplyToId,
      mediaIds,
      visibility,
      // Mastodon keeps an ISO 639 code and silently drops anything else (LanguagesHelper), so a
      // full BCP 47 tag like "fr-CA" arrives as no language at all.
      language: /^[a-z]{2,3}$/.test(str(b.language) ?? '') ? str(b.language)! : null,
      spoilerText: str(b.spoiler_text) ?? '',
      sensitive: str(b.sensitive) === 'true',
      ...checked.kept,
      idempotencyKey,
      createdAt: new Date(now()).toISOString(),
      seq: ++seq,
    };
    state.statuses.push(s);
    state.counter.add(accountId, text);
    return s;
  };
  const scheduled = registerScheduledStatuses(router, { state, auth, now, nextId, createStatus, mediaView });

  router.on('POST', '/api/v1/statuses', (req) => {
    const a = auth(req, 'write:statuses');
    if (!('accountId' in a)) return a;
    scheduled.publishDue();
    const headers = { ...a.headers, ...rateHeaders(`statuses:${a.accountId}`, 300, 3 * 3600) };
    const given = req.headers['idempotency-key'] ? String(req.headers['idempotency-key']) : undefined;
    const key = given ? `${a.accountId}|${given}` : undefined;
    const hit = key ? idem.get(key) : undefined;
    if (hit && Date.now() - hit.at < windowMs) {
      state.idempotentReplays += 1;
      const again = hit.scheduledId
        ? scheduled.view(hit.scheduledId)
        : statusView(state.statuses.find((s) => s.id === hit.statusId)!);
      if (again) return { status: 200, body: again, headers };
    }
    // With scheduled_at (at least 5 minutes ahead): a ScheduledStatus instead of a status.
    const r = str(req.body.scheduled_at)
      ? scheduled.create(a.accountId, req.body as Record<string, unknown>, given)
      : createStatus(a.accountId, req.body as Record<string, unknown>, given);
    if ('status' in r) return r;
    const isScheduled = state.scheduled.has(r.id);
    if (key)
      idem.set(key, { statusId: isScheduled ? '' : r.id, scheduledId: isScheduled ? r.id : undefined, at: Date.now() });
    return { status: 200, body: isScheduled ? scheduled.view(r.id) : statusView(r as MastodonStatus), headers };
  });
  router.on('GET', '/api/v1/statuses/:id', (req) => {
    scheduled.publishDue();
    const s = state.statuses.find((x) => x.id === req.params.id);
    if (!s || (s.visibility === 'direct' && !req.bearer)) return err(404, 'Record not found');
    return { status: 200, body: statusView(s) };
  });

  registerMastodonAfterPublish(router, { state, auth, err, statusView, maxCharacters: maxChars });

  const server = await startSimServer(router, {
    rateLimited: (reset) =>
      err(429, 'Too many requests', {
        'X-RateLimit-Limit': '300',
        'X-RateLimit-Remaining': '0',
        'X-RateLimit-Reset': new Date(reset * 1000).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z'),
      }),
    serverError: (status) =>
      err(status, status === 503 ? 'Service Unavailable' : "We're sorry, but something went wrong on our end."),
    expiredToken: () => err(401, 'The access token is invalid'),
    notFound: () => err(404, 'Record not found'),
  });
  server.faults.latencyMs = opts.latencyMs ?? 0;
  base = server.url;

  const addAccount = (a: {
    username: string;
    displayName?: string;
    followers?: number;
    following?: number;
  }): MastodonAccount => {
    const acct: MastodonAccount = {
      id: String(109_000 + state.accounts.length + 1),
      username: a.username,
      displayName: a.displayName ?? a.username,
      followers: a.followers ?? 0,
      following: a.following ?? 0,
    };
    state.accounts.push(acct);
    return acct;
  };
  addAccount({ username: 'herald', displayName: 'Herald Tester', followers: 128, following: 64 });
  const byName = (n: string) => state.accounts.find((a) => a.username === n);

  return {
    url: server.url,
    port: server.port,
    close: server.close,
    faults: server.faults,
    requests: server.requests,
    state,
    authorizeUrl: `${server.url}/oauth/authorize`,
    tokenUrl: `${server.url}/oauth/token`,
    addAccount,
    setCurrentUser: (n) => {
      if (!byName(n)) throw new Error(`no Mastodon account ${n}`);
      currentUser = n;
    },
    registerApp,
    revokeAllTokens: () => state.tokens.clear(),
    statusesBy: (n) => state.statuses.filter((s) => s.accountId === byName(n)?.id),
    countPosts: (n, text) => state.counter.count(byName(n)?.id ?? '', text),
    publishDue: () => scheduled.publishDue(),
  };
}
