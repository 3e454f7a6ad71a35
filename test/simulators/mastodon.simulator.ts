// Mastodon simulator: app registration, OAuth (PKCE optional), verify_credentials, instance v1/v2,
// media v2 with async processing, statuses with Idempotency-Key, account statuses.
import { checkMastoOptions, type MastoStatusOptions } from './mastodon.options.js';
import { Router, startSimServer, canaryToken, s256, str, strList, redirect, withQuery, PostCounter } from './common.js';
import type { SimReply, SimRequest, Faults } from './common.js';
import { registerMastodonInstance } from './mastodon.instance.js';
import { mastodonViews } from './mastodon.views.js';
import { registerScheduledStatuses, type MastodonScheduled } from './mastodon.scheduled.js';
import { registerMastodonAfterPublish } from './mastodon.after-publish.js';

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
  const codes = new Map<
    string,
    { accountId: string; clientId: string; redirectUri: string; scopes: string[]; challenge?: string }
  >();
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

  // --- Apps and OAuth ----------------------------------------------------------------------
  const registerApp = (redirectUris: string[], scopes = 'read'): MastodonApp => {
    const app: MastodonApp = {
      name: 'app',
      clientId: canaryToken('mastodon', 'client'),
      clientSecret: canaryToken('mastodon', 'secret'),
      redirectUris,
      scopes: scopes.split(/\s+/).filter(Boolean),
    };
    state.apps.push(app);
    return app;
  };
  router.on('POST', '/api/v1/apps', (req) => {
    const name = str(req.body.client_name);
    const uris = strList(req.body.redirect_uris)
      .flatMap((u) => u.split(/\s+/))
      .filter(Boolean);
    if (!name) return err(422, "Validation failed: Application name can't be blank");
    if (!uris.length) return err(422, "Validation failed: Redirect URI can't be blank");
    const app = registerApp(uris, str(req.body.scopes) ?? 'read');
    app.name = name;
    return {
      status: 200,
      body: {
        id: String(state.apps.length),
        name,
        website: str(req.body.website) ?? null,
        scopes: app.scopes,
        redirect_uri: uris.join('\n'),
        redirect_uris: uris,
        vapid_key: 'BCk-QqERU0q-CfYZjcuB6lnyyOYfJ2AifKqfeGIm7Z-HiTU5T9eTG5GxVA0_OH5mMlI4UkkDTpaZwozy0TzdZ2M=',
        client_id: app.clientId,
        client_secret: app.clientSecret,
        client_secret_expires_at: 0,
      },
    };
  });
  router.on('GET', '/oauth/authorize', (req) => {
    const q = req.query;
    const app = state.apps.find((a) => a.clientId === q.get('client_id'));
    const redirectUri = q.get('redirect_uri') ?? '';
    if (!app || !app.redirectUris.includes(redirectUri)) {
      return {
        status: 400,
        raw: '<p>The redirect uri included is not valid.</p>',
        headers: { 'content-type': 'text/html' },
      };
    }
    const back = (p: Record<string, string | undefined>) =>
      redirect(withQuery(redirectUri, { ...p, state: q.get('state') ?? undefined }));
    if (q.get('response_type') !== 'code') return back({ error: 'unsupported_response_type' });
    const scopes = (q.get('scope') ?? 'read').split(/[\s+]+/).filter(Boolean);
    if (!scopes.every((s) => app.scopes.includes(s) || app.scopes.includes(s.split(':')[0]!)))
      return back({ error: 'invalid_scope' });
    const challenge = q.get('code_challenge') ?? undefined;
    if (challenge && q.get('code_challenge_method') !== 'S256') return back({ error: 'invalid_request' });
    const acct = state.accounts.find((a) => a.username === currentUser) ?? state.accounts[0]!;
    const code = canaryToken('mastodon', 'code');
    codes.set(code, { accountId: acct.id, clientId: app.clientId, redirectUri, scopes, challenge });
    return back({ code });
  });
  router.on('POST', '/oauth/token', (req) => {
    const b = req.body;
    const app = state.apps.find((a) => a.clientId === str(b.client_id));
    if (!app || app.clientSecret !== str(b.client_secret)) {
      return {
        status: 401,
        body: {
          error: 'invalid_client',
          error_description:
            'Client authentication failed due to unknown client, no client authentication included, or ' +
            'unsupported authentication method.',
        },
      };
    }
    const grant = str(b.grant_type);
    const issue = (accountId: string, scopes: string[]) => {
      const token = canaryToken('mastodon', 'access');
      state.tokens.set(token, { accountId, scopes, clientId: app.clientId });
      state.issuedTokens.push(token);
      return {
        status: 200,
        body: {
          access_token: token,
          token_type: 'Bearer',
          scope: scopes.join(' '),
          created_at: Math.floor(Date.now() / 1000),
        },
      };
    };
    const invalidGrant = {
      status: 400,
      body: {
        error: 'invalid_grant',
        error_description:
          'The provided authorization grant is invalid, expired, revoked, does not match the redirection URI ' +
          'used in the authorization request, or was issued to another client.',
      },
    };
    if (grant === 'authorization_code') {
      const c = codes.get(str(b.code) ?? '');
      if (!c || c.clientId !== app.clientId || c.redirectUri !== str(b.redirect_uri)) return invalidGrant;
      codes.delete(str(b.code)!);
      if (c.challenge && s256(str(b.code_verifier) ?? '') !== c.challenge) return invalidGrant;
      return issue(c.accountId, c.scopes);
    }
    if (grant === 'client_credentials') return issue('', (str(b.scope) ?? 'read').split(/\s+/));
    return {
      status: 400,
      body: {
        error: 'unsupported_grant_type',
        error_description: 'The authorization grant type is not supported by the authorization server.',
      },
    };
  });
  router.on('POST', '/oauth/revoke', (req) => {
    state.tokens.delete(str(req.body.token) ?? '');
    return { status: 200, body: {} };
  });

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

  // --- Media -------------------------------------------------------------------------------
  router.on('POST', '/api/v2/media', (req) => {
    const a = auth(req, 'write:media');
    if (!('accountId' in a)) return a;
    const file = req.files.find((f) => f.name === 'file');
    if (!file || !file.contentType) return err(422, 'Validation failed: File content type is invalid, File is invalid');
    const mime = file.contentType;
    const type: MastodonMedia['type'] = mime.startsWith('image/')
      ? mime === 'image/gif'
        ? 'gifv'
        : 'image'
      : mime.startsWith('video/')
        ? 'video'
        : mime.startsWith('audio/')
          ? 'audio'
          : 'unknown';
    if (type === 'unknown') return err(422, 'Validation failed: File content type is invalid, File is invalid');
    const description = str(req.body.description) ?? null;
    if (description && description.length > 1500)
      return err(422, 'Validation failed: Description is too long (maximum is 1500 characters)');
    const m: MastodonMedia = {
      id: nextId(),
      accountId: a.accountId,
      type,
      mime,
      bytes: file.data,
      description,
      pollsLeft: type === 'image' ? 0 : (opts.processingPolls ?? 1),
      failed: false,
    };
    state.media.set(m.id, m);
    const headers = { ...a.headers, ...rateHeaders(`media:${a.accountId}`, 30, 1800) };
    return { status: m.pollsLeft > 0 ? 202 : 200, body: mediaView(m), headers };
  });
  router.on('GET', '/api/v1/media/:id', (req) => {
    const a = auth(req, 'write:media');
    if (!('accountId' in a)) return a;
    const m = state.media.get(req.params.id!);
    if (!m || m.accountId !== a.accountId) return err(404, 'Record not found');
    if (m.failed) return err(422, 'Error processing thumbnail for uploaded media');
    if (m.pollsLeft > 0) {
      m.pollsLeft -= 1;
      return { status: 206, body: mediaView({ ...m, pollsLeft: 1 }), headers: a.headers };
    }
    return { status: 200, body: mediaView(m), headers: a.headers };
  });
  router.on('PUT', '/api/v1/media/:id', (req) => {
    const a = auth(req, 'write:media');
    if (!('accountId' in a)) return a;
    const m = state.media.get(req.params.id!);
    if (!m || m.accountId !== a.accountId) return err(404, 'Record not found');
    const d = str(req.body.description);
    if (d !== undefined) m.description = d;
    return { status: 200, body: mediaView(m), headers: a.headers };
  });
  router.on('GET', '/system/media_attachments/:id', (req) => {
    const m = state.media.get(req.params.id!);
    return m ? { status: 200, raw: m.bytes, headers: { 'content-type': m.mime } } : err(404, 'Record not found');
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
