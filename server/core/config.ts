/**
 * Every setting Herald reads, parsed once. Sources, strongest first: the environment, then
 * `<data dir>/config.json` (same key names), then defaults. Nothing else reads process.env.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { canonicalTimeZone, machineTimeZone } from '../../time/zones.js';
import { PLATFORMS, type Platform } from '../../text/networks.js';
import { systemLanguage, validLanguage } from './language.js';
import { NETWORK_DEFAULTS } from './network-defaults.js';

// The network list has one home (text/networks.ts); server code keeps importing it from here.
export { PLATFORMS, type Platform };
export { systemLanguage, validLanguage };

export interface NetworkConfig {
  clientId?: string;
  clientSecret?: string;
  apiUrl: string;
  authorizeUrl: string;
  tokenUrl: string;
  /** LinkedIn only: the `LinkedIn-Version` to speak (the setting linkedinVersion); default the adapter's. */
  version?: string;
  /** LinkedIn only: whether sign-in asks for member post analytics (off when the app lacks the product). */
  analyticsScope?: boolean;
  /** Bluesky's video service; how long a network may process a video, and how often it is asked. */
  videoUrl?: string;
  processing?: { timeoutMs: number; pollMs: number };
}

export interface HeraldConfig {
  dataDir: string;
  dbPath: string;
  host: string;
  port: number;
  ownerEmail?: string;
  ownerPassword?: string;
  secretStore: 'keychain' | 'file' | 'encrypted';
  secretStoreExplicit: boolean;
  networks: Record<Platform, NetworkConfig>;
  /** `redirectUri`: a non-loopback redirect URI sign-in may also use (loopback ones always may). */
  identity: { issuer: string; clientId?: string; clientSecret?: string; redirectUri?: string };
  /** Credits granted at the start of every month. */
  monthlyCredits: number;
  /** Tier of the desktop UI's own key, and the default for new keys. */
  defaultTier: 'free' | 'pro' | 'enterprise';
  enterpriseLimit: number;
  /** Missed-while-closed grace period, ms. */
  graceMs: number;
  /** How often the scheduler sweeps for due entries behind its timer, ms. */
  sweepMs: number;
  /** Crash points to arm (server/core/crash.ts): from the environment only, never config.json. */
  crashAt?: string;
  /**
   * log2 of scrypt's N for new password hashes: OWASP's 17 unless HERALD_PASSWORD_COST says
   * otherwise. From the environment only, never config.json, and meant for the test suite, which
   * creates many users and would spend ~0.4 s on each at full cost. Hashes record their cost, so
   * a server run at full cost rehashes a cheaper one at the next sign-in.
   */
  passwordCostLog2: number;
  /** Request body cap for JSON routes, bytes. */
  jsonBodyLimit: number;
  logLevel: 'silent' | 'error' | 'info';
  /**
   * Whether user-given addresses (media URLs, a Mastodon instance, a Bluesky PDS) may be loopback
   * or private: for a Mastodon or PDS at home, and for tests. Link-local and special ranges stay
   * refused either way.
   */
  allowPrivateAddresses: boolean;
  /** How the listening socket treats slow and idle clients (server/http/sockets.ts). */
  http: {
    /** A request's headers must arrive within this, ms. */
    headersTimeoutMs: number;
    /** A socket with no bytes either way for this long is closed, ms (a moving upload never is). */
    idleTimeoutMs: number;
    keepAliveTimeoutMs: number;
    /** Whole-request cap, ms; 0 = none, so a slow but moving 512 MB upload is not cut. */
    requestTimeoutMs: number;
    /** Open connections kept; past it the oldest idle or stalled one is closed. */
    maxConnections: number;
  };
  /** Install-wide default IANA time zone (validated; an unknown zone falls back to the system's). */
  timeZone: string;
  /** Install-wide default post language, a BCP 47 tag (validated, canonicalised). */
  defaultLanguage: string;
  /**
   * X's pay-per-use prices, the monthly spend cap and what happens at it, and the API tier whose caps apply (settings,
   * apply at once).
   */
  x: XSettings;
  /**
   * Whether the quota gate holds scheduled posts at the networks' posting caps (default on). Off
   * only for benchmarks against simulators whose own limits are lifted; real networks refuse
   * what the caps describe.
   */
  postingCaps: boolean;
  /** Which notifications the UI and the desktop app show (settings, apply at once; all on by default). */
  notifications: NotificationSettings;
  /**
   * Mastodon hand-off (docs/decisions.md §14 `fedblogHandOff`): posts due 10 minutes or more ahead are scheduled on the
   * instance.
   */
  fedblogHandOff: boolean;
  /** A post with an image, GIF or video without alt text cannot be published, scheduled or queued (§11). */
  requireAltText: boolean;
  /** Reading X posts' counts for Analytics, each read priced at `x.readPriceUsd` (off by default: X charges reads). */
  xMetrics: boolean;
  /** Where alerts reach Telegram's bot API and Discord's webhooks (fixed hosts, replaceable for tests and proxies). */
  alertApis: { telegram: string; discord: string };
  microblogFollowUserId?: string;
  /** A non-loopback redirect URI that sign-in with X may also use. */
  microblogRedirectUri?: string;
}

export interface XSettings {
  /** USD per post request (Content Create). */
  priceUsd: number;
  /** USD per post request with a URL in it. */
  priceWithUrlUsd: number;
  /** USD per Media Metadata request: the alt text of one image, GIF or video. */
  mediaMetadataPriceUsd: number;
  /** USD per post read (owned reads, for metrics). */
  readPriceUsd: number;
  /** USD a month; null: no cap. */
  monthlyCapUsd: number | null;
  /** Over the cap: publish anyway with a warning, or refuse (402 SPEND_CAP_REACHED). */
  capAction: 'warn' | 'refuse';
  tier: 'pay_per_use' | 'free' | 'basic' | 'pro';
}

export const NOTIFICATION_KINDS = ['published', 'failed', 'missed', 'reconnect'] as const;
export type NotificationSettings = Record<(typeof NOTIFICATION_KINDS)[number], boolean>;

/** The OS's per-user application-data folder, as Electron's `app.getPath('userData')` picks it. */
export function defaultDataDir(platform = process.platform, env: NodeJS.ProcessEnv = process.env): string {
  const home = os.homedir();
  if (platform === 'win32') return path.join(env.APPDATA ?? path.join(home, 'AppData', 'Roaming'), 'Herald');
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support', 'Herald');
  return path.join(env.XDG_CONFIG_HOME || path.join(home, '.config'), 'Herald');
}

const optionalString = z.string().trim().min(1).optional().catch(undefined);
const portSchema = z.coerce.number().int().min(0).max(65535);

const rawSchema = z.object({
  HERALD_HOST: z.string().trim().min(1).default('127.0.0.1'),
  HERALD_PORT: portSchema.default(4780),
  HERALD_OWNER_EMAIL: optionalString,
  HERALD_OWNER_PASSWORD: z.string().min(1).optional(),
  HERALD_SECRET_STORE: z.enum(['keychain', 'file', 'encrypted']).optional(),
  /** IANA zone for schedules shown and typed; default the server process's own zone. */
  HERALD_TIME_ZONE: optionalString,
  /** BCP 47 tag new drafts get (docs/decisions.md §16 `defaultLanguage`); default from the system locale. */
  HERALD_DEFAULT_LANGUAGE: optionalString,
  HERALD_IDENTITY_ISSUER: z.string().url().default('https://accounts.google.com'),
  HERALD_IDENTITY_CLIENT_ID: optionalString,
  HERALD_IDENTITY_CLIENT_SECRET: optionalString,
  HERALD_IDENTITY_REDIRECT_URI: optionalString,
  HERALD_MICROBLOG_REDIRECT_URI: optionalString,
  HERALD_MONTHLY_CREDITS: z.coerce.number().int().min(0).default(10_000),
  HERALD_DEFAULT_TIER: z.enum(['free', 'pro', 'enterprise']).default('pro'),
  HERALD_ENTERPRISE_LIMIT: z.coerce.number().int().min(1).default(10000),
  HERALD_GRACE_MINUTES: z.coerce.number().min(0).default(15),
  HERALD_SWEEP_SECONDS: z.coerce.number().min(0.05).max(3600).default(20),
  HERALD_JSON_BODY_LIMIT: z.coerce
    .number()
    .int()
    .min(1024)
    .default(1024 * 1024),
  /** Herald's own X account, followed after connecting when followOnPlatform is true. */
  HERALD_MICROBLOG_FOLLOW_USER_ID: optionalString,
  HERALD_LOG_LEVEL: z.enum(['silent', 'error', 'info']).default('info'),
  HERALD_HEADERS_TIMEOUT_SECONDS: z.coerce.number().min(0.1).max(600).default(10),
  HERALD_IDLE_TIMEOUT_SECONDS: z.coerce.number().min(0.1).max(3600).default(60),
  HERALD_KEEPALIVE_TIMEOUT_SECONDS: z.coerce.number().min(0.1).max(600).default(5),
  HERALD_REQUEST_TIMEOUT_SECONDS: z.coerce.number().min(0).max(86_400).default(0),
  HERALD_MAX_CONNECTIONS: z.coerce.number().int().min(8).max(100_000).default(128),
  HERALD_ALLOW_PRIVATE_ADDRESSES: z.enum(['0', '1', 'true', 'false']).default('0'),
  HERALD_X_PRICE_USD: z.coerce.number().min(0).default(0.015),
  HERALD_X_PRICE_WITH_URL_USD: z.coerce.number().min(0).default(0.2),
  HERALD_X_MEDIA_METADATA_PRICE_USD: z.coerce.number().min(0).default(0.005),
  HERALD_X_READ_PRICE_USD: z.coerce.number().min(0).default(0.001),
  HERALD_X_MONTHLY_CAP_USD: z.coerce.number().min(0).optional(),
  HERALD_X_CAP_ACTION: z.enum(['warn', 'refuse']).default('warn'),
  HERALD_X_TIER: z.enum(['pay_per_use', 'free', 'basic', 'pro']).default('pay_per_use'),
  HERALD_POSTING_CAPS: z.enum(['on', 'off']).default('on'),
  HERALD_NOTIFY_PUBLISHED: z.enum(['0', '1', 'true', 'false']).default('1'),
  HERALD_NOTIFY_FAILED: z.enum(['0', '1', 'true', 'false']).default('1'),
  HERALD_NOTIFY_MISSED: z.enum(['0', '1', 'true', 'false']).default('1'),
  HERALD_NOTIFY_RECONNECT: z.enum(['0', '1', 'true', 'false']).default('1'),
  HERALD_SKYBLOG_VIDEO_URL: z.string().url().default('https://video.bsky.app'),
  HERALD_MEDIA_PROCESSING_TIMEOUT_SECONDS: z.coerce.number().min(0.01).max(86_400).default(900),
  HERALD_MEDIA_POLL_SECONDS: z.coerce.number().min(0.001).max(600).default(2),
  /** Mastodon hand-off (docs/decisions.md §14 `fedblogHandOff`), on by default. */
  HERALD_FEDBLOG_HAND_OFF: z.union([z.boolean(), z.enum(['0', '1', 'true', 'false'])]).default('1'),
  HERALD_REQUIRE_ALT_TEXT: z.union([z.boolean(), z.enum(['0', '1', 'true', 'false'])]).default('0'),
  /** X metrics reads (setting `xMetrics`), off by default. */
  HERALD_X_METRICS: z.union([z.boolean(), z.enum(['0', '1', 'true', 'false'])]).default('0'),
  HERALD_PROBLOG_ANALYTICS_SCOPE: z.union([z.boolean(), z.enum(['0', '1', 'true', 'false'])]).default('1'),
  HERALD_LINKEDIN_VERSION: z
    .string()
    .regex(/^\d{4}(0[1-9]|1[0-2])$/)
    .optional(),
  HERALD_TELEGRAM_API_URL: z.string().url().default('https://api.telegram.org'),
  HERALD_DISCORD_API_URL: z.string().url().default('https://discord.com'),
});

const on = (v: string) => v === '1' || v === 'true';
/** A switch given as a boolean (a settings file) or as an environment word. */
const flag = (v: boolean | string) => v === true || on(String(v));

/** Keys that may appear in the environment or config.json. */
export const CONFIG_KEYS = [
  ...Object.keys(rawSchema.shape),
  ...PLATFORMS.flatMap((p) =>
    ['CLIENT_ID', 'CLIENT_SECRET', 'API_URL', 'AUTHORIZE_URL', 'TOKEN_URL'].map(
      (k) => `HERALD_${p.toUpperCase()}_${k}`,
    ),
  ),
];

export class ConfigError extends Error {}

function passwordCost(value: string | undefined): number {
  // OWASP Password Storage Cheat Sheet's minimum for scrypt: N=2^17 (r=8, p=1).
  if (value === undefined || value === '') return 17;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 10 || n > 20)
    throw new ConfigError(
      'Invalid configuration: HERALD_PASSWORD_COST: a whole number from 10 to 20 (log2 of scrypt N)',
    );
  return n;
}

function readConfigFile(dataDir: string): Record<string, unknown> {
  const file = path.join(dataDir, 'config.json');
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new ConfigError(`Cannot read ${file}: ${(err as Error).message}`);
  }
  try {
    const parsed = JSON.parse(text);
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
    return parsed as Record<string, unknown>;
  } catch (err) {
    throw new ConfigError(`${file} is not a JSON object: ${(err as Error).message}`);
  }
}

/**
 * Builds the configuration. `overrides` (used by tests and by Electron's main process) sit above
 * the environment.
 */
export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  overrides: Partial<Record<string, string>> = {},
): HeraldConfig {
  const dataDir = path.resolve(
    overrides.HERALD_DATA_DIR ?? env.HERALD_DATA_DIR ?? defaultDataDir(process.platform, env),
  );
  const file = readConfigFile(dataDir);
  const merged: Record<string, unknown> = {};
  for (const key of CONFIG_KEYS) {
    // `allowPrivateAddresses` is the settings name §10 gives the switch in config.json.
    const fromFile = key === 'HERALD_ALLOW_PRIVATE_ADDRESSES' ? (file[key] ?? file.allowPrivateAddresses) : file[key];
    const value = overrides[key] ?? env[key] ?? fromFile;
    if (value !== undefined && value !== '')
      merged[key] = typeof value === 'number' || typeof value === 'boolean' ? String(value) : value;
  }
  // Parsed once per process: zod's compiled fast path would cost more to build than it saves.
  const parsed = rawSchema.safeParse(merged, { jitless: true });
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new ConfigError(`Invalid configuration: ${issues}`);
  }
  const raw = parsed.data;
  const networks = {} as Record<Platform, NetworkConfig>;
  const [waitMs, pollMs] = [raw.HERALD_MEDIA_PROCESSING_TIMEOUT_SECONDS * 1e3, raw.HERALD_MEDIA_POLL_SECONDS * 1e3];
  for (const p of PLATFORMS) {
    const k = (name: string) => merged[`HERALD_${p.toUpperCase()}_${name}`] as string | undefined;
    networks[p] = {
      clientId: k('CLIENT_ID'),
      clientSecret: k('CLIENT_SECRET'),
      apiUrl: k('API_URL') ?? NETWORK_DEFAULTS[p].api,
      authorizeUrl: k('AUTHORIZE_URL') ?? NETWORK_DEFAULTS[p].authorize,
      tokenUrl: k('TOKEN_URL') ?? NETWORK_DEFAULTS[p].token,
      ...(p === 'problog' && raw.HERALD_LINKEDIN_VERSION ? { version: raw.HERALD_LINKEDIN_VERSION } : {}),
      ...(p === 'problog' ? { analyticsScope: flag(raw.HERALD_PROBLOG_ANALYTICS_SCOPE) } : {}),
      processing: { timeoutMs: waitMs, pollMs },
    };
  }
  networks.skyblog.videoUrl = raw.HERALD_SKYBLOG_VIDEO_URL;
  const config: HeraldConfig = {
    dataDir,
    dbPath: path.join(dataDir, 'herald.db'),
    host: raw.HERALD_HOST,
    port: raw.HERALD_PORT,
    ownerEmail: raw.HERALD_OWNER_EMAIL,
    ownerPassword: raw.HERALD_OWNER_PASSWORD,
    secretStore: raw.HERALD_SECRET_STORE ?? 'keychain',
    secretStoreExplicit: raw.HERALD_SECRET_STORE !== undefined,
    networks,
    identity: {
      issuer: raw.HERALD_IDENTITY_ISSUER,
      clientId: raw.HERALD_IDENTITY_CLIENT_ID,
      clientSecret: raw.HERALD_IDENTITY_CLIENT_SECRET,
      redirectUri: raw.HERALD_IDENTITY_REDIRECT_URI,
    },
    monthlyCredits: raw.HERALD_MONTHLY_CREDITS,
    defaultTier: raw.HERALD_DEFAULT_TIER,
    enterpriseLimit: raw.HERALD_ENTERPRISE_LIMIT,
    graceMs: raw.HERALD_GRACE_MINUTES * 60_000,
    sweepMs: Math.round(raw.HERALD_SWEEP_SECONDS * 1000),
    crashAt: overrides.HERALD_CRASH_AT ?? env.HERALD_CRASH_AT,
    passwordCostLog2: passwordCost(overrides.HERALD_PASSWORD_COST ?? env.HERALD_PASSWORD_COST),
    jsonBodyLimit: raw.HERALD_JSON_BODY_LIMIT,
    logLevel: raw.HERALD_LOG_LEVEL,
    allowPrivateAddresses: raw.HERALD_ALLOW_PRIVATE_ADDRESSES === '1' || raw.HERALD_ALLOW_PRIVATE_ADDRESSES === 'true',
    http: {
      headersTimeoutMs: Math.round(raw.HERALD_HEADERS_TIMEOUT_SECONDS * 1000),
      idleTimeoutMs: Math.round(raw.HERALD_IDLE_TIMEOUT_SECONDS * 1000),
      keepAliveTimeoutMs: Math.round(raw.HERALD_KEEPALIVE_TIMEOUT_SECONDS * 1000),
      // Node refuses a request timeout shorter than the headers timeout.
      requestTimeoutMs:
        raw.HERALD_REQUEST_TIMEOUT_SECONDS > 0
          ? Math.max(
              Math.round(raw.HERALD_REQUEST_TIMEOUT_SECONDS * 1000),
              Math.round(raw.HERALD_HEADERS_TIMEOUT_SECONDS * 1000),
            )
          : 0,
      maxConnections: raw.HERALD_MAX_CONNECTIONS,
    },
    timeZone: '',
    defaultLanguage: '',
    x: {
      priceUsd: raw.HERALD_X_PRICE_USD,
      priceWithUrlUsd: raw.HERALD_X_PRICE_WITH_URL_USD,
      monthlyCapUsd: raw.HERALD_X_MONTHLY_CAP_USD ?? null,
      mediaMetadataPriceUsd: raw.HERALD_X_MEDIA_METADATA_PRICE_USD,
      readPriceUsd: raw.HERALD_X_READ_PRICE_USD,
      capAction: raw.HERALD_X_CAP_ACTION,
      tier: raw.HERALD_X_TIER,
    },
    postingCaps: raw.HERALD_POSTING_CAPS === 'on',
    notifications: {
      published: on(raw.HERALD_NOTIFY_PUBLISHED),
      failed: on(raw.HERALD_NOTIFY_FAILED),
      missed: on(raw.HERALD_NOTIFY_MISSED),
      reconnect: on(raw.HERALD_NOTIFY_RECONNECT),
    },
    requireAltText: flag(raw.HERALD_REQUIRE_ALT_TEXT),
    fedblogHandOff: flag(raw.HERALD_FEDBLOG_HAND_OFF),
    xMetrics: flag(raw.HERALD_X_METRICS),
    alertApis: { telegram: raw.HERALD_TELEGRAM_API_URL, discord: raw.HERALD_DISCORD_API_URL },
    microblogFollowUserId: raw.HERALD_MICROBLOG_FOLLOW_USER_ID,
    microblogRedirectUri: raw.HERALD_MICROBLOG_REDIRECT_URI,
  };
  // Worked out on first use: the first Intl call loads ICU's data, ~10 ms that start-up (and
  // every CLI command) would otherwise pay before the first request needs a zone or a language.
  lazySetting(config, 'timeZone', () => canonicalTimeZone(raw.HERALD_TIME_ZONE) ?? machineTimeZone());
  lazySetting(config, 'defaultLanguage', () => validLanguage(raw.HERALD_DEFAULT_LANGUAGE) ?? systemLanguage(env));
  return config;
}

/** A property computed on first read (then kept), and still assignable like a plain one. */
function lazySetting<K extends 'timeZone' | 'defaultLanguage'>(
  config: HeraldConfig,
  key: K,
  compute: () => HeraldConfig[K],
): void {
  let value: HeraldConfig[K] | undefined;
  Object.defineProperty(config, key, {
    enumerable: true,
    configurable: true,
    get: () => (value ??= compute()),
    set: (v: HeraldConfig[K]) => {
      value = v;
    },
  });
}
