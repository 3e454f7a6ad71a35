/**
 * createServer(options): the one way Herald starts, under Electron's main process, `npm run
 * serve` and tests. Opens SQLite, applies migrations before listening, creates the owner from
 * the environment when the install is new, listens on loopback and prints the listening line.
 */
import fs from 'node:fs';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';
import type { Express, RequestHandler } from 'express';
import { loadConfig, type HeraldConfig } from './core/config.js';
import { consoleLogger, type Logger } from './core/logger.js';
import { systemClock, type Clock } from './core/clock.js';
import { systemIds, type Ids } from './core/ids.js';
import { type Deps } from './domain/deps.js';
import { startCheckpointer, type Checkpointer } from './db/checkpointer.js';
import { openDatabase, type Db, type Sqlite } from './db/connection.js';
import { createServices, type Services } from './domain/services.js';
import { allowedHosts, allowedOrigins } from './http/middleware/guards.js';
import { API_PREFIX, createApp } from './http/app.js';
import { defaultUiDir, uiHandlers } from './http/ui.js';
import type { RouteDef } from './http/route.js';
import { answerParserErrors, limitSockets, serverTimeouts } from './http/sockets.js';
import { allAdapters, createPlatformRegistry } from './platforms/index.js';
import { ManagedSecretStore, openSecretStore, type SecretStore } from './secrets/index.js';
import { Scheduler, type SchedulerOptions } from './jobs/scheduler.js';
import type { AlertDispatcher, DispatcherOptions } from './domain/alerts/alert-dispatcher.js';
import type { ScheduledRunnerOptions } from './domain/publishing/scheduled-runner.js';
import { SchedulerLock } from './db/scheduler-lock.js';
import { armCrashPoints } from './core/crash.js';
import { startCredentialCheck } from './jobs/credential-check.job.js';
import { startMetricsJob } from './jobs/metrics.job.js';

export interface ServerOptions {
  config?: HeraldConfig;
  /** Settings layered over the environment when `config` is not given. */
  overrides?: Partial<Record<string, string>>;
  env?: NodeJS.ProcessEnv;
  clock?: Clock;
  ids?: Ids;
  random?: () => number;
  log?: Logger;
  secrets?: SecretStore;
  /** Print the listening line (default true unless the log level is silent). */
  announce?: boolean;
  /** Extra API routes and non-API handlers (later areas, the UI). */
  routes?: (s: Services) => RouteDef[];
  extra?: (s: Services) => RequestHandler[];
  /** Folder of the built UI; default renderer/dist when built, '' for none. */
  uiDir?: string;
  /**
   * How long after listening the background WAL checkpointer starts, and the dummy password hash is made (default 1 s).
   */
  checkpointDelayMs?: number;
  /** Scheduler settings; `false` runs no scheduler (the API only). */
  scheduler?: (Omit<SchedulerOptions, 'lock'> & ScheduledRunnerOptions) | false;
  /** The daily credential check's timers; `false` runs none (tests call services.credentialCheck.run()). */
  credentialCheck?: { firstMs?: number; everyMs?: number } | false;
  /** The metrics reads' timers and pace; `false` runs no timers (a refresh still reads at once). */
  metrics?: { firstMs?: number; everyMs?: number; spacingMs?: number } | false;
  /** Alert sending's backoff and timers; `false` sends none. */
  alerts?: DispatcherOptions | false;
}

export interface HeraldServer {
  url: string;
  apiUrl: string;
  port: number;
  host: string;
  config: HeraldConfig;
  deps: Deps;
  /** The connection, for tests and tools; services reach storage only through their repos. */
  sqlite: Sqlite;
  /** drizzle over the same connection (tests' fixtures). */
  db: Db;
  services: Services;
  app: Express;
  http: http.Server;
  scheduler?: Scheduler;
  /** Sends alerts (domain/alerts/alert-dispatcher.ts); tests await its pump(). */
  alerts?: AlertDispatcher;
  /** WAL checkpoints off the main thread (server/db/checkpointer.ts). */
  checkpointer: Checkpointer;
  close(): Promise<void>;
}

/**
 * Request and response classes whose prototypes already are the app's, so Express's per-request
 * `setPrototypeOf` changes nothing (expressjs/express#4532: the swap deoptimises every request).
 */
function expressClasses(app: Express) {
  function Req(this: http.IncomingMessage, socket: import('node:net').Socket) {
    (http.IncomingMessage as unknown as (this: unknown, s: unknown) => void).call(this, socket);
  }
  Req.prototype = (app as unknown as { request: object }).request;
  function Res(this: http.ServerResponse, req: http.IncomingMessage, options?: unknown) {
    (http.ServerResponse as unknown as (this: unknown, r: unknown, o: unknown) => void).call(this, req, options);
  }
  Res.prototype = (app as unknown as { response: object }).response;
  return {
    IncomingMessage: Req as unknown as typeof http.IncomingMessage,
    ServerResponse: Res as unknown as typeof http.ServerResponse,
  };
}

/** chmod 0700 an existing folder; `required` false skips one not made yet. */
function privateFolder(dir: string, required = true): void {
  try {
    fs.chmodSync(dir, 0o700);
  } catch (err) {
    if (required || (err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}

export const formatHost = (host: string) => (host.includes(':') && !host.startsWith('[') ? `[${host}]` : host);

/** Whether `host` (HERALD_HOST) names this machine's loopback interface only. */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || /^(::ffff:)?127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/** How long a file with no media row may sit untouched before another live Herald's upload is ruled out. */
const ORPHAN_AGE_MS = 60 * 60_000;

/**
 * Files a killed Herald left in the media folder, removed before the API listens (so no upload of
 * this process is under way). Another Herald serving the same folder may be writing one: when one
 * holds the folder's scheduler lock, only files untouched for an hour go; when none does, every
 * file with no row written before this start.
 */
function removeOrphanMedia(
  services: Services,
  dataDir: string,
  startedAt: number,
  log: Logger,
  schedulerLock?: SchedulerLock,
): void {
  // The scheduler's own lock when it will run (taken once, kept for it); a probe otherwise.
  const probe = schedulerLock ?? new SchedulerLock(dataDir);
  let alone = false;
  try {
    alone = probe.tryAcquire();
  } catch {
    /* the lock cannot be taken (a full disk): keep to the safe rule */
  }
  try {
    const n = services.media.removeOrphans(alone ? startedAt : startedAt - ORPHAN_AGE_MS);
    if (n > 0) log.info(`Herald removed ${n} media file(s) an interrupted upload left behind`);
  } catch (err) {
    log.warn(`Herald could not tidy the media folder: ${(err as Error).message}`);
  } finally {
    if (!schedulerLock) probe.release();
  }
}

/**
 * Listens on a second loopback address (::1 beside 127.0.0.1) and hands its connections to the
 * same HTTP server, so http://[::1]:port/ and a `localhost` that resolves to ::1 reach Herald as
 * 127.0.0.1 does, under the same limits. Best effort: a machine without IPv6 loopback, or with
 * the port taken there, is served on 127.0.0.1 alone.
 */
function listenAlso(server: http.Server, host: string, port: number, log: Logger): Promise<net.Server | undefined> {
  const extra = net.createServer((socket) => server.emit('connection', socket));
  return new Promise((resolve) => {
    extra.once('error', (err: NodeJS.ErrnoException) => {
      log.info(`Herald: not listening on ${host} as well (${err.code ?? err.message})`);
      resolve(undefined);
    });
    extra.listen(port, host, () => resolve(extra));
  });
}

export async function createServer(options: ServerOptions = {}): Promise<HeraldServer> {
  const config = options.config ?? loadConfig(options.env ?? process.env, options.overrides);
  const log = options.log ?? consoleLogger(config.logLevel);
  const startedAt = Date.now();
  if (config.crashAt) armCrashPoints(config.crashAt);
  fs.mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  // mkdir's mode only applies to a folder it creates: one that already exists (made 0755 by a
  // shell or an older Herald) is tightened too, with the media folder inside it.
  privateFolder(config.dataDir);
  privateFolder(path.join(config.dataDir, 'media'), false);
  const database = openDatabase(config.dbPath);
  let schedulerLock: SchedulerLock | undefined;
  try {
    const secrets = new ManagedSecretStore(options.secrets ?? (await openSecretStore(config, log)));
    const deps: Deps = {
      config,
      log,
      secrets,
      platforms: createPlatformRegistry(allAdapters()),
      clock: options.clock ?? systemClock,
      ids: options.ids ?? systemIds,
      random: options.random ?? Math.random,
      runtime: { baseUrl: `http://${formatHost(config.host)}:${config.port}` },
    };
    const services = createServices(deps, database.sqlite);
    await services.networkApps.load();
    await services.mediaRelay.load();
    await services.users.ensureOwner();
    schedulerLock = options.scheduler === false ? undefined : new SchedulerLock(config.dataDir);
    removeOrphanMedia(services, config.dataDir, startedAt, log, schedulerLock);

    let port = config.port;
    const uiDir = options.uiDir === undefined ? defaultUiDir() : options.uiDir || undefined;
    const uiRoutes = () => (uiDir ? uiHandlers(uiDir, () => deps.runtime.baseUrl) : []);
    const hosts = () => allowedHosts(port, config.host);
    let hostSet = hosts();
    let originSet = allowedOrigins(hostSet);
    const app = createApp({
      services,
      hosts: () => hostSet,
      origins: () => originSet,
      routes: options.routes?.(services),
      extra: [...(options.extra?.(services) ?? []), ...uiRoutes()],
    });
    // requireHostHeader off: an HTTP/1.1 request without Host meets the Host guard (403 in the
    // envelope, like every other refused Host) instead of Node's bare 400.
    const server = http.createServer(
      { ...expressClasses(app), ...serverTimeouts(config.http), requireHostHeader: false },
      app.dispatch,
    );
    limitSockets(server, config.http);
    answerParserErrors(server);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, config.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    port = (server.address() as AddressInfo).port;
    const v6 = config.host === '127.0.0.1' ? await listenAlso(server, '::1', port, log) : undefined;
    hostSet = hosts();
    originSet = allowedOrigins(hostSet);
    const url = `http://${formatHost(config.host)}:${port}`;
    deps.runtime.baseUrl = url;
    // One write, so whoever waits for the listening line has the UI's address with it.
    if (options.announce ?? config.logLevel !== 'silent')
      console.log(`Herald API listening on ${url}${API_PREFIX}${uiDir ? `\nHerald UI at ${url}/` : ''}`);
    if (!isLoopbackHost(config.host)) {
      log.warn(
        `Herald: HERALD_HOST=${config.host} is not a loopback address, so other machines can connect to port ` +
          `${port}. They still need an API key, but nothing else stands between them and the API: set ` +
          `HERALD_HOST=127.0.0.1 unless you mean to serve other machines.`,
      );
    }

    const scheduling =
      options.scheduler === false || !schedulerLock
        ? undefined
        : { sweepMs: config.sweepMs, handOff: services.handOff, ...options.scheduler, lock: schedulerLock };
    const scheduler =
      scheduling && new Scheduler(deps, services.scheduledRunner(scheduling), services.scheduling, scheduling);
    await scheduler?.start();
    // In every process, not only the scheduler's: deliveries are claimed row by row (each sent once).
    const alerts = options.alerts === false ? undefined : services.alertDispatcher(options.alerts);
    alerts?.start();
    const credentialCheck =
      options.credentialCheck === false || options.scheduler === false
        ? undefined
        : startCredentialCheck(services.credentialCheck, log, options.credentialCheck);
    if (options.metrics && options.metrics.spacingMs !== undefined)
      services.metricsCollector.opts.spacingMs = options.metrics.spacingMs;
    const metricsJob =
      options.metrics === false || options.scheduler === false
        ? undefined
        : startMetricsJob(services.metricsCollector, log, options.metrics);
    // The upkeep watches (domain/alerts/upkeep.ts) look every 15 minutes, each notice told once, and
    // the queue's free slots of the next 24 h take due evergreen drafts (the scheduler fires them).
    const upkeep =
      options.credentialCheck === false || options.scheduler === false
        ? undefined
        : startCredentialCheck(
            { run: async () => [services.upkeep.run(), await services.queue.fillEvergreen()] },
            log,
            { firstMs: 30_000, everyMs: 900_000 },
          );
    // Started a moment after the API answers, so its thread's start-up does not compete with the
    // first requests; until it runs, the main connection checkpoints as SQLite always does.
    const backgroundDelayMs = options.checkpointDelayMs ?? 1_000;
    const checkpointer = startCheckpointer(database.sqlite, config.dbPath, { log, delayMs: backgroundDelayMs });
    // Likewise the dummy password hash (a core for a quarter of a second at the default cost).
    const prepareAuth = setTimeout(() => services.auth.prepare(), backgroundDelayMs);
    prepareAuth.unref();

    let closing: Promise<void> | undefined;
    const close = () =>
      (closing ??= new Promise<void>((resolve) => {
        const force = setTimeout(() => server.closeAllConnections(), 5000);
        force.unref();
        clearTimeout(prepareAuth);
        credentialCheck?.stop();
        metricsJob?.stop();
        upkeep?.stop();
        const stopScheduler = Promise.all([scheduler?.stop(), alerts?.stop(), services.metricsCollector.stop()]);
        // Open event streams never end on their own: ended here, so the server can close.
        services.events.shutdown();
        v6?.close();
        server.close(() => {
          clearTimeout(force);
          services.idempotency.close();
          void stopScheduler
            .finally(() => checkpointer.stop())
            .finally(() => {
              database.close();
              resolve();
            });
        });
        server.closeIdleConnections();
      }));
    return {
      url,
      apiUrl: url + API_PREFIX,
      port,
      host: config.host,
      config,
      deps,
      sqlite: database.sqlite,
      db: database.db,
      services,
      app,
      http: server,
      scheduler,
      alerts,
      checkpointer,
      close,
    };
  } catch (err) {
    schedulerLock?.release();
    database.close();
    throw err;
  }
}
