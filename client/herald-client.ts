/**
 * The typed Herald client: every endpoint of /api/v1 over fetch, with types inferred from the
 * server's zod contracts. No Node-only imports: the UI, the CLI, tests and users' scripts all
 * use it. Errors are `HeraldError` with the API's `code`, the HTTP `status` and `message`.
 */
import type { z } from 'zod';
import type * as accounts from '../server/contracts/accounts.js';
import type * as auth from '../server/contracts/auth.js';
import type * as connections from '../server/contracts/connections.js';
import type * as credits from '../server/contracts/credits.js';
import type * as drafts from '../server/contracts/drafts.js';
import type * as draftFiles from '../server/contracts/draft-files.js';
import type * as media from '../server/contracts/media.js';
import type * as linkCards from '../server/contracts/link-cards.js';
import type * as publishing from '../server/contracts/publishing.js';
import type * as schedule from '../server/contracts/schedule.js';
import type * as queue from '../server/contracts/queue.js';
import type { messageResponse } from '../server/contracts/common.js';
import type * as settings from '../server/contracts/settings.js';
import type * as setupContracts from '../server/contracts/setup.js';
import type * as networks from '../server/contracts/networks.js';
import type * as signin from '../server/contracts/signin.js';
import type * as sets from '../server/contracts/social-sets.js';
import type * as templates from '../server/contracts/templates.js';
import type * as users from '../server/contracts/users.js';

import { parseEventStream, type HeraldEvent } from './event-stream.js';

export { parseEventStream, type HeraldEvent };

type In<T extends z.ZodType> = z.input<T>;
type Out<T extends z.ZodType> = z.output<T>;
type Message = Out<typeof messageResponse>;
/** A query string's fields, as the route reads them once parsed (all optional on the wire). */
type QueryOf<T extends z.ZodType> = Partial<z.output<T>>;

/** The networks connected by OAuth (a browser round trip ending at GET /<network>/callback). */
export type OAuthNetwork = 'microblog' | 'fedblog' | 'threadblog' | 'problog';
export type NetworkAppPlatform = In<typeof networks.appPlatform>;

export const DEFAULT_BASE_URL = 'http://127.0.0.1:4780/api/v1';

/** An error answered by the API (or a failure to reach it, with code NETWORK_ERROR). */
export class HeraldError extends Error {
  constructor(
    readonly code: string,
    readonly status: number,
    message: string,
    readonly details?: { path: string; message: string }[],
    readonly retryAfter?: number,
  ) {
    super(message);
    this.name = 'HeraldError';
  }
}

export interface ClientOptions {
  /** Base URL including /api/v1. Default: HERALD_BASE_URL, else http://127.0.0.1:4780/api/v1. */
  baseUrl?: string;
  /** API key. Default: HERALD_API_KEY. */
  apiKey?: string;
  /** Retry a 429 after its Retry-After, up to this many times (`true`: 3; default: no retry). */
  retryRateLimited?: number | boolean;
  /** Longest Retry-After honoured, seconds (default 60). */
  maxRetryAfter?: number;
  fetch?: typeof fetch;
  /** Extra headers on every request (e.g. a User-Agent). */
  headers?: Record<string, string>;
}

function env(name: string): string | undefined {
  const g = globalThis as { process?: { env?: Record<string, string | undefined> } };
  return g.process?.env?.[name];
}

type Query = Record<string, string | number | boolean | undefined>;

/**
 * Options of one call that creates or publishes (the routes whose RouteDef says `idempotent: true`).
 * `idempotencyKey` (1-255 visible ASCII) is sent as `Idempotency-Key`: per user, for 24 hours, the
 * same call with the same key gets the first answer again instead of running twice, also across
 * a restart of Herald. Without one, the client makes one up whenever it may send the request more
 * than once (`retryRateLimited`), so a retried write is never applied twice.
 */
export interface WriteOptions {
  idempotencyKey?: string;
}

/** A fresh Idempotency-Key (Web Crypto: browsers and Node alike). */
export function newIdempotencyKey(): string {
  return globalThis.crypto.randomUUID();
}

function isHttpUrl(s: string): boolean {
  try {
    return /^https?:$/.test(new URL(s).protocol);
  } catch {
    return false;
  }
}

/** Retry-After in seconds: delta-seconds, or an HTTP date (RFC 9110 §10.2.3). */
function parseRetryAfter(value: string | null): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

export class HeraldClient {
  readonly baseUrl: string;
  apiKey: string | undefined;
  private readonly opts: ClientOptions;
  private readonly fetchImpl: typeof fetch;

  constructor(opts: ClientOptions = {}) {
    this.opts = opts;
    this.baseUrl = (opts.baseUrl ?? env('HERALD_BASE_URL') ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
    if (!isHttpUrl(this.baseUrl)) {
      throw new HeraldError('INVALID_INPUT', 0, `The base URL "${this.baseUrl}" is not an http(s) URL (like ${DEFAULT_BASE_URL})`);
    }
    this.apiKey = opts.apiKey ?? env('HERALD_API_KEY');
    this.fetchImpl = opts.fetch ?? globalThis.fetch.bind(globalThis);
  }

  /** Low-level call; every method below goes through it. */
  async request<T>(method: string, path: string, init: { body?: unknown; query?: Query; auth?: boolean; form?: FormData; raw?: boolean; idempotent?: WriteOptions; text?: { type: string; data: string }; asText?: boolean } = {}): Promise<T> {
    const url = new URL(this.baseUrl + path);
    for (const [k, v] of Object.entries(init.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = { accept: 'application/json', ...this.opts.headers };
    if (init.auth !== false) {
      if (!this.apiKey) throw new HeraldError('INVALID_API_KEY', 401, 'No API key: pass apiKey, set HERALD_API_KEY, or run `herald login`');
      headers['svc-key'] = this.apiKey;
    }
    let body: BodyInit | undefined;
    if (init.form) body = init.form;
    else if (init.text) {
      body = init.text.data;
      headers['content-type'] = `${init.text.type}; charset=utf-8`;
    } else if (init.body !== undefined) {
      body = JSON.stringify(init.body);
      headers['content-type'] = 'application/json';
    }
    const retry = this.opts.retryRateLimited;
    const retries = retry === true ? 3 : typeof retry === 'number' ? retry : 0;
    // One key for every attempt: a resend is then the same request, answered once.
    const idempotencyKey = init.idempotent?.idempotencyKey ?? (init.idempotent && retries > 0 ? newIdempotencyKey() : undefined);
    if (idempotencyKey !== undefined) headers['idempotency-key'] = idempotencyKey;
    for (let attempt = 0; ; attempt++) {
      let res: Response;
      try {
        res = await this.fetchImpl(url, { method, headers, body });
      } catch (err) {
        const cause = (err as { cause?: { message?: string } }).cause?.message ?? (err as Error).message;
        throw new HeraldError('NETWORK_ERROR', 0, `Herald is not reachable at ${this.baseUrl} (${cause}); is it running?`);
      }
      if (res.ok && init.raw) return (await res.blob()) as T;
      if (res.ok && init.asText) return (await res.text()) as T;
      const text = await res.text();
      let data: any;
      try { data = text ? JSON.parse(text) : {}; } catch { data = undefined; }
      if (res.ok) return (data ?? text) as T;
      const retryAfter = parseRetryAfter(res.headers.get('retry-after'));
      if (res.status === 429 && attempt < retries && retryAfter !== undefined && retryAfter <= (this.opts.maxRetryAfter ?? 60)) {
        await new Promise((r) => setTimeout(r, retryAfter * 1000));
        continue;
      }
      throw new HeraldError(data?.error ?? 'HTTP_ERROR', res.status, data?.message ?? `HTTP ${res.status}`, data?.details, retryAfter);
    }
  }

  // Sign-in and keys
  login(body: In<typeof auth.loginBody>) { return this.request<Out<typeof auth.loginResponse>>('POST', '/auth/login', { body, auth: false }); }
  listApiKeys() { return this.request<Out<typeof auth.apiKeyListResponse>>('GET', '/auth/api-keys'); }
  createApiKey(body: In<typeof auth.createKeyBody>) { return this.request<Out<typeof auth.createKeyResponse>>('POST', '/auth/api-keys', { body }); }
  /** Starts signing in with the OpenID Connect provider: send the person to `authUrl`. */
  identitySignInUrl(body: In<typeof signin.signInUrlBody>) { return this.request<Out<typeof signin.signInUrlResponse>>('POST', '/auth/oauth/identity/url', { body, auth: false }); }
  /** Finishes it with the `code` and `state` the provider sent back; answers with a new API key. */
  identitySignInCallback(body: In<typeof signin.signInCallbackBody>) { return this.request<Out<typeof signin.identityCallbackResponse>>('POST', '/auth/oauth/identity/callback', { body, auth: false }); }
  /** Starts signing in with an X account. */
  microblogSignInUrl(body: In<typeof signin.signInUrlBody>) { return this.request<Out<typeof signin.signInUrlResponse>>('POST', '/auth/oauth/microblog/url', { body, auth: false }); }
  microblogSignInCallback(body: In<typeof signin.signInCallbackBody>) { return this.request<Out<typeof signin.microblogCallbackResponse>>('POST', '/auth/oauth/microblog/callback', { body, auth: false }); }
  deleteApiKey(keyId: string) { return this.request<Message>('DELETE', `/auth/api-keys/${encodeURIComponent(keyId)}`); }
  /** Signs out: revokes this client's own key on the server (it answers 401 from then on). */
  logout() { return this.request<Message>('POST', '/auth/logout'); }

  // User, accounts, sets
  me() { return this.request<Out<typeof users.meResponse>>('GET', '/me'); }
  listAccounts() { return this.request<Out<typeof accounts.accountListResponse>>('GET', '/accounts'); }
  getAccount(id: string) { return this.request<Out<typeof accounts.accountResponse>>('GET', `/accounts/${encodeURIComponent(id)}`); }
  deleteAccount(id: string) { return this.request<Message>('DELETE', `/accounts/${encodeURIComponent(id)}`); }
  listSocialSets() { return this.request<Out<typeof sets.setListResponse>>('GET', '/social-sets'); }
  createSocialSet(body: In<typeof sets.createSetBody>, write: WriteOptions = {}) { return this.request<Out<typeof sets.setResponse>>('POST', '/social-sets', { body, idempotent: write }); }
  updateSocialSet(body: In<typeof sets.updateSetBody>) { return this.request<Out<typeof sets.setResponse>>('PUT', '/social-sets', { body }); }
  deleteSocialSet(id: string) { return this.request<Message>('DELETE', '/social-sets', { body: { id } }); }

  // Connecting accounts
  connectMicroblog(body: In<typeof connections.oauthConnectBody> = {}) { return this.request<Out<typeof connections.oauthStartResponse>>('POST', '/microblog/auth', { body }); }
  connectFedblog(body: In<typeof connections.fedblogConnectBody>) { return this.request<Out<typeof connections.oauthStartResponse>>('POST', '/fedblog/auth', { body }); }
  connectThreadblog(body: In<typeof connections.oauthConnectBody> = {}) { return this.request<Out<typeof connections.oauthStartResponse>>('POST', '/threadblog/auth', { body }); }
  connectProblog(body: In<typeof connections.oauthConnectBody> = {}) { return this.request<Out<typeof connections.oauthStartResponse>>('POST', '/problog/auth', { body }); }
  /** Where the network sends the browser back: finishes connecting an account from the callback's query. */
  finishConnect(network: OAuthNetwork, query: QueryOf<typeof connections.callbackQuery>) { return this.request<Out<typeof connections.callbackResponse>>('GET', `/${network}/callback`, { query: query as Query, auth: false }); }
  /** Finishes connecting from the address the network sent the browser to, pasted (networks that refuse loopback). */
  finishConnectPasted(network: In<typeof networks.pastedNetwork>, redirectUrl: string) { return this.request<Out<typeof connections.callbackResponse>>('POST', `/${network}/callback`, { body: { redirectUrl } }); }
  /** How a flow started with connect*() ended: waiting, connected (with what happened, in words) or failed (cancelled, wrong app, ...). */
  connectionStatus(sessionId: string) { return this.request<Out<typeof connections.connectStatusResponse>>('GET', `/connections/${encodeURIComponent(sessionId)}`); }
  connectSkyblog(body: In<typeof connections.skyblogConnectBody>) { return this.request<Out<typeof connections.skyblogConnectResponse>>('POST', '/skyblog/auth', { body }); }

  // Drafts
  /** Every draft, newest first; pass `limit` (and then `cursor: nextCursor`) to page. */
  listDrafts(query: QueryOf<typeof drafts.listQuery> = {}) { return this.request<Out<typeof drafts.draftListResponse>>('GET', '/microblog/drafts', { query: query as Query }); }
  getDraft(id: string) { return this.request<Out<typeof drafts.draftResponse>>('GET', `/microblog/drafts/${encodeURIComponent(id)}`); }
  /** Creates a draft from posts (`tweets: [{content, position}]`); content may be HTML or plain text. */
  createDraft(body: In<typeof drafts.createDraftBody>, write: WriteOptions = {}) { return this.request<Out<typeof drafts.draftResponse>>('POST', '/microblog/drafts', { body, idempotent: write }); }
  /** Creates up to 100 drafts, all or nothing. */
  createDrafts(body: In<typeof drafts.batchBody>, write: WriteOptions = {}) { return this.request<Out<typeof drafts.batchResponse>>('POST', '/microblog/drafts/batch', { body, idempotent: write }); }
  updateDraft(id: string, body: In<typeof drafts.updateDraftBody>) { return this.request<Out<typeof drafts.draftResponse>>('PUT', `/microblog/drafts/${encodeURIComponent(id)}`, { body }); }
  deleteDraft(id: string) { return this.request<Message>('DELETE', `/microblog/drafts/${encodeURIComponent(id)}`); }
  getDraftPlatforms(id: string) { return this.request<Out<typeof drafts.platformsResponse>>('GET', `/microblog/drafts/${encodeURIComponent(id)}/platforms`); }
  /** Upserts per-network text; empty content removes that network's override. */
  setDraftPlatforms(id: string, body: In<typeof drafts.putPlatformsBody>) { return this.request<Out<typeof drafts.platformsResponse>>('PUT', `/microblog/drafts/${encodeURIComponent(id)}/platforms`, { body }); }
  /** What each target network receives for a draft, counted by that account's rules. */
  draftNetworks(id: string, accountIds?: string[]) { return this.request<Out<typeof drafts.networksResponse>>('GET', `/microblog/drafts/${encodeURIComponent(id)}/networks`, { query: { accountIds: accountIds?.join(',') } }); }
  /** Splits text into posts that fit one network, counted with an account's rules when given. */
  splitText(body: In<typeof drafts.splitBody>) { return this.request<Out<typeof drafts.splitResponse>>('POST', '/microblog/drafts/split', { body }); }

  /** The link card of a page (title, description, image, site name), or `card: null` when the page cannot be read; then its image's bytes (NOT_FOUND when none can be read). */
  linkPreview(url: string) { return this.request<Out<typeof linkCards.linkPreviewResponse>>('GET', '/link-preview', { query: { url } }); }
  linkPreviewImage(pageUrl: string) { return this.request<Blob>('GET', '/link-preview/image', { query: { url: pageUrl }, raw: true }); }
  /** A draft as a file: Markdown with YAML front matter (`format: 'md'`, the default) or JSON; times in `timeZone` when given. */
  exportDraft(id: string, query: QueryOf<typeof draftFiles.exportQuery> = {}) { return this.request<string>('GET', `/microblog/drafts/${encodeURIComponent(id)}/export`, { query: query as Query, asText: true }); }
  /** Creates drafts from a Markdown file (one draft) or JSON (one, an array or `{drafts}`); `dryRun` only reads and checks. */
  importDrafts(data: string, format: In<typeof draftFiles.fileFormat>, query: QueryOf<typeof draftFiles.importQuery> = {}, write: WriteOptions = {}) { return this.request<Out<typeof draftFiles.importResponse>>('POST', '/microblog/drafts/import', { text: { type: format === 'md' ? 'text/markdown' : 'application/json', data }, query: query as Query, idempotent: write }); }
  /** One draft per CSV row (text, networks, scheduledFor, timeZone, media, language); errors name row and column; nothing is created when a row is wrong unless `partial`. */
  importDraftsCsv(data: string, query: QueryOf<typeof draftFiles.csvQuery> = {}, write: WriteOptions = {}) { return this.request<Out<typeof draftFiles.csvResponse>>('POST', '/microblog/drafts/import-csv', { text: { type: 'text/csv', data }, query: query as Query, idempotent: write }); }

  // Media
  /** Upload up to 4 files (images, GIF, MP4/MOV); each becomes a media item to attach to posts. */
  uploadMedia(files: readonly { name: string; data: Blob }[], write: WriteOptions = {}) {
    const form = new FormData();
    for (const f of files) form.append('files', f.data, f.name);
    return this.request<Out<typeof media.uploadResponse>>('POST', '/microblog/media/upload', { form, idempotent: write });
  }
  setMediaAltText(mediaId: string, altText: string) { return this.request<Out<typeof media.mediaResponse>>('PATCH', `/microblog/media/${encodeURIComponent(mediaId)}`, { body: { altText } }); }
  deleteMedia(mediaId: string) { return this.request<Out<typeof media.deletedResponse>>('DELETE', `/microblog/media/${encodeURIComponent(mediaId)}`); }
  /** Where a media item's bytes are served (no key needed: ids are unguessable). */
  mediaUrl(mediaId: string) { return `${this.baseUrl}/media/${encodeURIComponent(mediaId)}`; }
  /** The bytes of a media item. */
  getMedia(mediaId: string) { return this.request<Blob>('GET', `/media/${encodeURIComponent(mediaId)}`, { auth: false, raw: true }); }

  // Templates

  listTemplates() { return this.request<Out<typeof templates.templateListResponse>>('GET', '/templates'); }
  getTemplate(id: string) { return this.request<Out<typeof templates.templateResponse>>('GET', `/templates/${encodeURIComponent(id)}`); }
  createTemplate(body: In<typeof templates.createTemplateBody>, write: WriteOptions = {}) { return this.request<Out<typeof templates.templateResponse>>('POST', '/templates', { body, idempotent: write }); }
  updateTemplate(id: string, body: In<typeof templates.updateTemplateBody>) { return this.request<Out<typeof templates.templateResponse>>('PUT', `/templates/${encodeURIComponent(id)}`, { body }); }
  deleteTemplate(id: string) { return this.request<Message>('DELETE', `/templates/${encodeURIComponent(id)}`); }

  // Credits
  credits() { return this.request<Out<typeof credits.creditsResponse>>('POST', '/credits'); }
  /** The same answer by GET /credits (docs/decisions.md §15 names it so): balance, schedule, xSpend. */
  getCredits() { return this.request<Out<typeof credits.creditsResponse>>('GET', '/credits'); }
  /** Adds (or, below zero, removes) credits: owner keys only; a result below 0 is refused. */
  adjustCredits(body: In<typeof credits.adjustBody>) {
    return this.request<Out<typeof credits.creditsResponse>>('POST', '/credits/adjust', { body });
  }
  creditsUsage(query: QueryOf<typeof credits.usageQuery> = {}) { return this.request<Out<typeof credits.usageResponse>>('GET', '/credits/usage', { query: query as Query }); }

  // Publishing
  /** Publishes a draft to its accounts (or `accountIds`) and answers when every target is done. */
  publish(draftId: string, opts: Omit<In<typeof publishing.publishBody>, 'draftId' | 'async'> = {}, write: WriteOptions = {}) {
    return this.request<Out<typeof publishing.publishResponse>>('POST', '/microblog/publish', { body: { ...opts, draftId }, idempotent: write });
  }
  /** Starts publishing and answers at once with the job id; follow `publishProgress`. */
  publishAsync(draftId: string, opts: Omit<In<typeof publishing.publishBody>, 'draftId' | 'async'> = {}, write: WriteOptions = {}) {
    return this.request<Out<typeof publishing.acceptedResponse>>('POST', '/microblog/publish', { body: { ...opts, draftId, async: true }, idempotent: write });
  }
  /** What publishing would send and cost, per account (dryRun: nothing is sent, charged or stored). */
  publishDryRun(draftId: string, opts: Omit<In<typeof publishing.publishBody>, 'draftId' | 'async' | 'dryRun'> = {}) {
    return this.request<Out<typeof publishing.dryRunResponse>>('POST', '/microblog/publish', { body: { ...opts, draftId, dryRun: true } });
  }
  publishMultiPlatform(body: In<typeof publishing.multiPublishBody>, write: WriteOptions = {}) { return this.request<Out<typeof publishing.multiPublishResponse>>('POST', '/publish/multi-platform', { body, idempotent: write }); }
  quote(body: Omit<In<typeof publishing.quoteBody>, 'dryRun'>, write: WriteOptions = {}) { return this.request<Out<typeof publishing.quoteResponse>>('POST', '/microblog/quote', { body, idempotent: write }); }
  /** What quoting would send and cost (dryRun: nothing is sent, charged or stored). */
  quoteDryRun(body: Omit<In<typeof publishing.quoteBody>, 'dryRun'>) { return this.request<Out<typeof publishing.dryRunResponse>>('POST', '/microblog/quote', { body: { ...body, dryRun: true } }); }
  publishSkyblog(body: Omit<In<typeof publishing.textPublishBody>, 'dryRun'>, write: WriteOptions = {}) { return this.request<Out<typeof publishing.singlePublishResponse>>('POST', '/skyblog/publish', { body, idempotent: write }); }
  /** What publishing this text to Bluesky would send and cost (dryRun: media URLs are checked, not fetched; nothing is sent, charged or stored). */
  publishSkyblogDryRun(body: Omit<In<typeof publishing.textPublishBody>, 'dryRun'>) { return this.request<Out<typeof publishing.dryRunResponse>>('POST', '/skyblog/publish', { body: { ...body, dryRun: true } }); }
  publishFedblog(body: Omit<In<typeof publishing.textPublishBody>, 'dryRun'>, write: WriteOptions = {}) { return this.request<Out<typeof publishing.singlePublishResponse>>('POST', '/fedblog/publish', { body, idempotent: write }); }
  /** What publishing this text to Mastodon would send and cost (dryRun, as publishSkyblogDryRun). */
  publishFedblogDryRun(body: Omit<In<typeof publishing.textPublishBody>, 'dryRun'>) { return this.request<Out<typeof publishing.dryRunResponse>>('POST', '/fedblog/publish', { body: { ...body, dryRun: true } }); }
  publishThreadblog(body: Omit<In<typeof publishing.threadblogPublishBody>, 'dryRun'>, write: WriteOptions = {}) { return this.request<Out<typeof publishing.singlePublishResponse>>('POST', '/threadblog/publish', { body, idempotent: write }); }
  /** What publishing a draft, or text and mediaUrls, to Threads would send and cost (dryRun, as publishSkyblogDryRun). */
  publishThreadblogDryRun(body: Omit<In<typeof publishing.threadblogPublishBody>, 'dryRun'>) { return this.request<Out<typeof publishing.dryRunResponse>>('POST', '/threadblog/publish', { body: { ...body, dryRun: true } }); }
  publishProblog(body: Omit<In<typeof publishing.problogPublishBody>, 'dryRun'>, write: WriteOptions = {}) { return this.request<Out<typeof publishing.singlePublishResponse>>('POST', '/problog/publish', { body, idempotent: write }); }
  /** What publishing a draft, or text and mediaUrls, to LinkedIn would send and cost (dryRun, as publishSkyblogDryRun). */
  publishProblogDryRun(body: Omit<In<typeof publishing.problogPublishBody>, 'dryRun'>) { return this.request<Out<typeof publishing.dryRunResponse>>('POST', '/problog/publish', { body: { ...body, dryRun: true } }); }
  publishProgress(query: QueryOf<typeof publishing.progressQuery>) { return this.request<Out<typeof publishing.progressResponse>>('GET', '/microblog/publish/progress', { query: query as Query }); }

  publishHistory(query: QueryOf<typeof publishing.historyQuery> = {}) { return this.request<Out<typeof publishing.historyResponse>>('GET', '/publish/history', { query: query as Query }); }
  resolveReview(body: In<typeof publishing.reviewBody>) { return this.request<Message>('POST', '/publish/review', { body }); }

  // Install
  /** Whether this install still needs its owner (first run). */
  needsSetup() { return this.request<Out<typeof settings.setupStatusResponse>>('GET', '/auth/setup', { auth: false }); }
  /** Creates the owner of a new install and answers with its first API key (refused once a user exists). */
  setup(body: In<typeof settings.setupBody>) { return this.request<Out<typeof settings.setupResponse>>('POST', '/auth/setup', { body, auth: false }); }
  // Network apps (Settings → Networks)
  listNetworks() { return this.request<Out<typeof networks.networksResponse>>('GET', '/networks'); }
  setNetwork(platform: In<typeof networks.appPlatform>, body: In<typeof networks.setNetworkBody>) { return this.request<Out<typeof networks.networkResponse>>('PUT', `/networks/${platform}`, { body }); }
  removeNetwork(platform: In<typeof networks.appPlatform>) { return this.request<Out<typeof networks.networkResponse>>('DELETE', `/networks/${platform}`); }
  testNetwork(platform: In<typeof networks.appPlatform>) { return this.request<Out<typeof networks.networkTestResponse>>('POST', `/networks/${platform}/test`); }

  /** Where secrets live and whether the OS keychain works here (owner only). */
  secretStore() { return this.request<Out<typeof setupContracts.secretSetupResponse>>('GET', '/setup/secrets'); }
  /** Records the first-run wizard's step (null finishes it), so a reload resumes there. */
  setWizardStep(body: In<typeof settings.wizardBody>) { return this.request<Out<typeof settings.wizardResponse>>('PUT', '/setup/wizard', { body }); }
  chooseSecretStore(body: In<typeof setupContracts.chooseSecretStoreBody>) { return this.request<Out<typeof setupContracts.chooseSecretStoreResponse>>('POST', '/setup/secrets', { body }); }
  unlockSecretStore(body: In<typeof setupContracts.unlockSecretsBody>) { return this.request<Out<typeof setupContracts.unlockSecretsResponse>>('POST', '/setup/secrets/unlock', { body }); }
  settings() { return this.request<Out<typeof settings.settingsResponse>>('GET', '/settings'); }
  updateSettings(body: In<typeof settings.updateSettingsBody>) { return this.request<Out<typeof settings.updateSettingsResponse>>('PUT', '/settings', { body }); }
  /** Online backup of the database into <data dir>/backups on the server's machine (owner only). */
  backup() { return this.request<Out<typeof settings.backupResponse>>('POST', '/backup'); }

  // Events
  /**
   * The stream of this user's events (GET /events), as they happen: post.scheduled,
   * post.sending, post.published, post.failed, post.missed, post.cancelled,
   * account.needs_reauth, credits.changed. `lastEventId` resumes after that id (kept 7 days);
   * without it the stream starts with the next event. Ends when `signal` aborts or the server
   * closes it (then resume with the last id seen).
   */
  async *events(opts: { lastEventId?: number; signal?: AbortSignal; onOpen?: () => void } = {}): AsyncGenerator<HeraldEvent> {
    if (!this.apiKey) throw new HeraldError('INVALID_API_KEY', 401, 'No API key: pass apiKey, set HERALD_API_KEY, or run `herald login`');
    const headers: Record<string, string> = { accept: 'text/event-stream', ...this.opts.headers, 'svc-key': this.apiKey };
    if (opts.lastEventId !== undefined) headers['last-event-id'] = String(opts.lastEventId);
    let res: Response;
    try {
      res = await this.fetchImpl(this.baseUrl + '/events', { headers, signal: opts.signal });
    } catch (err) {
      if (opts.signal?.aborted) return;
      const cause = (err as { cause?: { message?: string } }).cause?.message ?? (err as Error).message;
      throw new HeraldError('NETWORK_ERROR', 0, `Herald is not reachable at ${this.baseUrl} (${cause}); is it running?`);
    }
    if (!res.ok || !res.body) {
      const text = await res.text();
      let data: any;
      try { data = JSON.parse(text); } catch { data = undefined; }
      throw new HeraldError(data?.error ?? 'HTTP_ERROR', res.status, data?.message ?? `HTTP ${res.status}`);
    }
    opts.onOpen?.();
    yield* parseEventStream(res.body, opts.signal);
  }

  // Scheduling
  schedule(body: In<typeof schedule.scheduleBody>, write: WriteOptions = {}) { return this.request<Out<typeof schedule.scheduleResponse>>('POST', '/microblog/schedule', { body, idempotent: write }); }
  /** What scheduling would plan and cost (dryRun: nothing is scheduled). */
  scheduleDryRun(body: Omit<In<typeof schedule.scheduleBody>, 'dryRun'>) { return this.request<Out<typeof publishing.dryRunResponse>>('POST', '/microblog/schedule', { body: { ...body, dryRun: true } }); }
  listSchedules() { return this.request<Out<typeof schedule.scheduleListResponse>>('GET', '/microblog/schedule'); }
  /** Cancels the draft's pending entries, or only `accountId`'s (one network). */
  cancelSchedule(draftId: string, accountId?: string) { return this.request<Out<typeof schedule.cancelResponse>>('DELETE', '/microblog/schedule', { query: { draftId, accountId } }); }
  /** A social set's weekly queue slots (`{day: 1-7, time: "HH:MM"}` in its time zone). */
  getSlots(socialSetId: string) { return this.request<Out<typeof sets.slotsResponse>>('GET', `/social-sets/${encodeURIComponent(socialSetId)}/slots`); }
  setSlots(socialSetId: string, body: In<typeof sets.putSlotsBody>) { return this.request<Out<typeof sets.slotsResponse>>('PUT', `/social-sets/${encodeURIComponent(socialSetId)}/slots`, { body }); }
  /** Schedules a draft in its set's next free slot. */
  addToQueue(body: In<typeof queue.queueAddBody>, write: WriteOptions = {}) { return this.request<Out<typeof queue.queueAddResponse>>('POST', '/microblog/queue', { body, idempotent: write }); }
  listQueue(query: QueryOf<typeof queue.queueListQuery> = {}) { return this.request<Out<typeof queue.queueListResponse>>('GET', '/microblog/queue', { query }); }
  /** Moves a queued draft to another coming slot (the draft there, if any, takes its old slot). */
  moveInQueue(body: In<typeof queue.queueMoveBody>) { return this.request<Out<typeof queue.queueMoveResponse>>('POST', '/microblog/queue/move', { body }); }
}
