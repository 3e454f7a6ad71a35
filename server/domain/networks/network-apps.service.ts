/**
 * The install's own apps at the networks (Settings → Networks, `herald network set`): the client
 * id and secret a person created on X's, Threads', LinkedIn's or the identity provider's
 * developer portal, kept in the secret store (never SQLite, logs or backups) under
 * `network-app:<platform>`. Environment variables (and config.json) still win: `config.ts` reads
 * them, and `source` says which is in force. Services ask `network(platform)` at call time, so a
 * PUT takes effect at the next call without a restart.
 */
import path from 'node:path';
import type { HeraldConfig, NetworkConfig, Platform } from '../../core/config.js';
import { HeraldError } from '../../core/errors.js';
import type { Deps } from '../deps.js';
import type { UsersService } from '../users/users.service.js';
import { NETWORK_NAMES, PlatformError } from '../../platforms/errors.js';
import { APP_SCOPES, linkedinScopes } from '../../platforms/scopes.js';
import type { SettingsRepo } from '../../db/repos/settings.repo.js';
import { checkIdentityApp } from './identity-check.js';

export const APP_PLATFORMS = ['microblog', 'threadblog', 'problog', 'identity'] as const;
export type AppPlatform = (typeof APP_PLATFORMS)[number];
export type AppSource = 'app' | 'env' | null;

const IDENTITY_LABEL = 'Sign-in provider (Google or OpenID Connect)';

export interface NetworkAppInput {
  clientId?: string;
  clientSecret?: string;
  redirectUri?: string;
  /** LinkedIn only: ask for member post analytics at sign-in (kept in config.json). */
  analyticsScope?: boolean;
}

interface StoredApp {
  clientId: string;
  clientSecret: string;
  redirectUri?: string;
}

export interface NetworkAppView {
  platform: AppPlatform;
  /** Its name as people know it. */
  label: string;
  /** The OAuth scopes Herald asks for (platforms/scopes.ts). */
  scopes: string[];
  configured: boolean;
  source: AppSource;
  redirectUri: string;
  /** The client id in force (not a secret; shown so the person can tell which app it is). */
  clientId: string | null;
  /** LinkedIn only: whether sign-in asks for analytics. */
  analyticsScope?: boolean;
}

const secretName = (p: AppPlatform) => `network-app:${p}`;
const label = (p: AppPlatform) => (p === 'identity' ? 'The identity provider' : NETWORK_NAMES[p]);
const ENV_NAME: Record<AppPlatform, string> = {
  microblog: 'MICROBLOG',
  threadblog: 'THREADBLOG',
  problog: 'PROBLOG',
  identity: 'IDENTITY',
};

export function isAppPlatform(p: string): p is AppPlatform {
  return (APP_PLATFORMS as readonly string[]).includes(p);
}

function invalid(path: string, message: string): HeraldError {
  return new HeraldError('INVALID_INPUT', message, { details: [{ path, message }] });
}

export class NetworkAppsService {
  private readonly stored = new Map<AppPlatform, StoredApp>();

  constructor(
    private readonly deps: Deps,
    private readonly users: UsersService,
    private readonly settings?: SettingsRepo,
  ) {}

  /** Reads the stored apps once at start; afterwards the cache follows every set and remove. */
  async load(): Promise<void> {
    // A locked store is read again once unlocked (SecretSetupService calls load then).
    if (this.deps.secrets.locked) return;
    for (const p of APP_PLATFORMS) {
      try {
        const raw = await this.deps.secrets.get(secretName(p));
        if (!raw) continue;
        const app = JSON.parse(raw) as StoredApp;
        if (typeof app.clientId === 'string' && typeof app.clientSecret === 'string') this.stored.set(p, app);
      } catch (err) {
        this.deps.log.warn(`Herald could not read the saved ${label(p)} app: ${(err as Error).message}`);
      }
    }
  }

  private envApp(p: AppPlatform): { clientId?: string; clientSecret?: string } {
    return p === 'identity' ? this.deps.config.identity : this.deps.config.networks[p];
  }

  /** Which source is in force: the environment (or config.json) when it names a client id. */
  source(p: AppPlatform): AppSource {
    if (this.envApp(p).clientId) return 'env';
    return this.stored.has(p) ? 'app' : null;
  }

  /** The network's endpoints with the client id and secret in force, for the adapters. */
  network(p: Platform): NetworkConfig {
    const base = this.deps.config.networks[p];
    if (!isAppPlatform(p) || this.source(p) !== 'app') return base;
    const app = this.stored.get(p)!;
    return { ...base, clientId: app.clientId, clientSecret: app.clientSecret };
  }

  /** The identity provider's settings with the client in force. */
  identity(): HeraldConfig['identity'] {
    const base = this.deps.config.identity;
    const app = this.stored.get('identity');
    if (this.source('identity') !== 'app' || !app) return base;
    return {
      ...base,
      clientId: app.clientId,
      clientSecret: app.clientSecret,
      redirectUri: app.redirectUri ?? base.redirectUri,
    };
  }

  /** A non-loopback redirect URI the person set (sign-in flows accept it besides loopback ones). */
  customRedirectUri(p: AppPlatform): string | undefined {
    return this.stored.get(p)?.redirectUri;
  }

  /** The redirect URI to register at the network and to send in the flow. */
  redirectUri(p: AppPlatform | Platform): string {
    const custom = isAppPlatform(p) ? this.stored.get(p)?.redirectUri : undefined;
    if (custom) return custom;
    const base = this.deps.runtime.baseUrl;
    if (p === 'identity') return this.deps.config.identity.redirectUri ?? `${base}/signin/identity`;
    return `${base}/api/v1/${p}/callback`;
  }

  list(): NetworkAppView[] {
    return APP_PLATFORMS.map((p) => this.view(p));
  }

  view(p: AppPlatform): NetworkAppView {
    const source = this.source(p);
    const clientId =
      source === 'env' ? this.envApp(p).clientId! : source === 'app' ? this.stored.get(p)!.clientId : null;
    const configured = source === 'env' ? !!this.envApp(p).clientSecret : source === 'app';
    const label = p === 'identity' ? IDENTITY_LABEL : NETWORK_NAMES[p];
    const analyticsScope = p === 'problog' ? this.deps.config.networks.problog.analyticsScope !== false : undefined;
    return {
      platform: p,
      label,
      scopes: analyticsScope === undefined ? [...APP_SCOPES[p]] : linkedinScopes(analyticsScope),
      configured,
      source,
      redirectUri: this.redirectUri(p),
      clientId,
      ...(analyticsScope === undefined ? {} : { analyticsScope }),
    };
  }

  private ownerOnly(userId: string): void {
    if (!this.users.isOwner(userId))
      throw new HeraldError(
        'UNAUTHORIZED',
        "Only the owner of this install can change or test the install's network apps",
      );
  }

  /** LinkedIn's analytics scope on or off: applies to the next sign-in (an app of either source keeps it). */
  private setAnalyticsScope(p: AppPlatform, on: boolean): void {
    if (p !== 'problog') throw invalid('body.analyticsScope', 'analyticsScope is a LinkedIn setting only');
    this.settings?.saveFile(path.join(this.deps.config.dataDir, 'config.json'), { HERALD_PROBLOG_ANALYTICS_SCOPE: on });
    this.deps.config.networks.problog.analyticsScope = on;
  }

  async set(userId: string, p: AppPlatform, input: NetworkAppInput): Promise<NetworkAppView> {
    this.ownerOnly(userId);
    const appGiven = [input.clientId, input.clientSecret, input.redirectUri].some((v) => v !== undefined);
    if (input.analyticsScope !== undefined) {
      this.setAnalyticsScope(p, input.analyticsScope);
      if (!appGiven) return this.view(p);
    }
    const clientId = (input.clientId ?? '').trim();
    const clientSecret = (input.clientSecret ?? '').trim();
    if (!clientId)
      throw invalid('body.clientId', "clientId is empty: paste the client id from the network's developer portal");
    if (!clientSecret)
      throw invalid(
        'body.clientSecret',
        "clientSecret is empty: paste the client secret from the network's developer portal",
      );
    if (/\s/.test(clientId) || /\s/.test(clientSecret))
      throw invalid(
        /\s/.test(clientId) ? 'body.clientId' : 'body.clientSecret',
        'The client id and secret have no spaces or line breaks: copy them again',
      );
    let redirectUri: string | undefined;
    if (input.redirectUri !== undefined && input.redirectUri.trim() !== '') {
      let url: URL;
      try {
        url = new URL(input.redirectUri.trim());
      } catch {
        throw invalid('body.redirectUri', 'redirectUri is not an absolute URL');
      }
      if (url.protocol !== 'https:' && url.protocol !== 'http:')
        throw invalid('body.redirectUri', 'redirectUri must be an http(s) URL');
      if (url.search || url.hash || url.username || url.password)
        throw invalid('body.redirectUri', 'redirectUri must not have a query, a fragment or credentials');
      if (p === 'threadblog' && url.protocol !== 'https:')
        throw invalid('body.redirectUri', 'Threads only accepts HTTPS redirect URIs');
      redirectUri = url.href;
    }
    if (this.deps.secrets.kind === 'unavailable') {
      throw new HeraldError(
        'INVALID_INPUT',
        `Herald cannot keep the secret: ${this.deps.secrets.problem ?? 'no secret store is available'}`,
      );
    }
    const app: StoredApp = { clientId, clientSecret, ...(redirectUri ? { redirectUri } : {}) };
    await this.deps.secrets.set(secretName(p), JSON.stringify(app));
    this.stored.set(p, app);
    return this.view(p);
  }

  async remove(userId: string, p: AppPlatform): Promise<NetworkAppView> {
    this.ownerOnly(userId);
    await this.deps.secrets.delete(secretName(p));
    this.stored.delete(p);
    return this.view(p);
  }

  /** The Test button: the credentials in force, checked against the network. */
  async test(userId: string, p: AppPlatform): Promise<{ ok: boolean; message: string }> {
    this.ownerOnly(userId);
    const source = this.source(p);
    if (source === null)
      return {
        ok: false,
        message:
          `${label(p)} has no app set up: create one on its developer portal, then save its client id and ` +
          `secret here (or set HERALD_${ENV_NAME[p]}_CLIENT_ID and HERALD_${ENV_NAME[p]}_CLIENT_SECRET)`,
      };
    if (!this.view(p).configured)
      return {
        ok: false,
        message: `HERALD_${ENV_NAME[p]}_CLIENT_ID is set but HERALD_${ENV_NAME[p]}_CLIENT_SECRET is not`,
      };
    const from = source === 'env' ? ' (from the environment)' : '';
    try {
      if (p === 'identity') {
        const r = await checkIdentityApp(this.identity());
        return { ok: r.ok, message: r.message + from };
      }
      const adapter = this.deps.platforms.get(p);
      if (!adapter.oauth?.checkApp) return { ok: false, message: `${label(p)} cannot be checked from Herald` };
      const r = await adapter.oauth.checkApp({ network: this.network(p), redirectUri: this.redirectUri(p) });
      return { ok: r.ok, message: r.message + from };
    } catch (err) {
      // Only the network's refusals are told; anything else is Herald's own fault and rethrown.
      if (!(err instanceof PlatformError)) throw err;
      return { ok: false, message: `Herald could not check the app: ${err.message}` };
    }
  }
}
