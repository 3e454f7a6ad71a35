/**
 * A real Bluesky PDS (@atproto/pds) with a local PLC directory (@did-plc/server, in memory), in
 * this process, on random loopback ports, with SQLite and blobs in a temp folder. Nothing leaves
 * the machine: the appview and moderation services point at `.invalid` hosts, so `app.bsky.*`
 * reads fail (502) exactly as they do on a PDS without an appview; read back with
 * com.atproto.repo.* instead. Starting takes a few seconds (mostly loading the modules): share one
 * per test file.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { Secp256k1Keypair } from '@atproto/crypto';
import { startFaultProxy, type FaultProxy } from '../helpers/fault-proxy.js';
import type { AppView } from './appview.js';

export interface XrpcCall {
  params?: Record<string, string>;
  body?: unknown;
  token?: string;
  raw?: Buffer;
  contentType?: string;
  /** POST without a body. */
  post?: boolean;
}

export interface PdsAccount {
  did: string;
  handle: string;
  email: string;
  /** The account's main password. */
  password: string;
  /** An app password created for it, what Herald is given. */
  appPassword: string;
  accessJwt: string;
  refreshJwt: string;
}

export interface PdsPeer {
  /** Base URL of the PDS, e.g. http://localhost:51234 */
  url: string;
  plcUrl: string;
  /** Milliseconds from the call to `startPds` until both servers answered. */
  startMs: number;
  createAccount(name: string): Promise<PdsAccount>;
  /** An XRPC GET/POST against the PDS; throws with the XRPC error name on failure. */
  xrpc<T = any>(method: string, opts?: XrpcCall): Promise<T>;
  /**
   * The same access JWT, re-signed with the PDS's own secret but with `exp` in the past: the PDS
   * answers it with a real `ExpiredToken`, as it would two hours after sign-in.
   */
  expired(jwt: string): string;
  getRecord(uri: string): Promise<{ uri: string; cid: string; value: any }>;
  listPosts(did: string): Promise<{ uri: string; cid: string; value: any }[]>;
  /** With `faultProxy: true`: the proxy every client (Herald included) reaches the PDS through. */
  proxy?: FaultProxy;
  close(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** Both packages are CommonJS (and @did-plc/server's default export is a class, not the namespace). */
const require = createRequire(import.meta.url);
type PdsModule = typeof import('@atproto/pds');
type PlcModule = typeof import('@did-plc/server');
/** The PDS package as startPds loads it (for a bench that wraps its start); resolvable from test/ only. */
export const pdsModule = (): PdsModule => require('@atproto/pds') as PdsModule;

export class XrpcFailure extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    message: string,
  ) {
    super(`${status} ${error}: ${message}`);
  }
}

export interface PdsOptions {
  /** Turn on the PDS's own rate limits (createSession: 30 per 5 minutes per identifier). */
  rateLimits?: boolean;
  /**
   * Put a fault proxy (test/helpers/fault-proxy.ts) at the PDS's public address: the DID
   * documents name the proxy's port, the PDS itself listens on another, so Herald's calls (which
   * follow the DID document) can be counted, held and dropped after the PDS committed them.
   */
  faultProxy?: boolean;
  /** The AppView the PDS proxies `app.bsky.*` reads to (appview.ts); without it those reads fail. */
  appView?: AppView;
  /** Bytes one uploadBlob may carry (the PDS's default is 5 MB; Bluesky's hosts take 100 MB videos). */
  blobUploadLimit?: number;
}

const JWT_SECRET = 'jwt-secret-for-herald-tests';

export async function startPds(opts: PdsOptions = {}): Promise<PdsPeer> {
  const started = Date.now();
  const plc = require('@did-plc/server') as PlcModule;
  const pds = require('@atproto/pds') as PdsModule;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-pds-'));

  const plcServer = plc.PlcServer.create({ db: plc.Database.mock(), port: 0 });
  const plcHttp = await plcServer.start();
  const plcUrl = `http://localhost:${(plcHttp.address() as net.AddressInfo).port}`;

  const port = await freePort();
  const rotation = await Secp256k1Keypair.create({ exportable: true });
  const recovery = await Secp256k1Keypair.create();
  const env = {
    devMode: true,
    port,
    hostname: 'localhost',
    dataDirectory: dir,
    blobstoreDiskLocation: path.join(dir, 'blobs'),
    didPlcUrl: plcUrl,
    recoveryDidKey: recovery.did(),
    plcRotationKeyK256PrivateKeyHex: Buffer.from(await rotation.export()).toString('hex'),
    adminPassword: 'admin-pass',
    jwtSecret: JWT_SECRET,
    enableDidDocWithSession: true,
    rateLimitsEnabled: opts.rateLimits ?? false,
    ...(opts.blobUploadLimit ? { blobUploadLimit: opts.blobUploadLimit } : {}),
    serviceHandleDomains: ['.test'],
    inviteRequired: false,
    disableSsrfProtection: true,
    bskyAppViewUrl: opts.appView?.url ?? 'https://appview.invalid',
    bskyAppViewDid: opts.appView?.did ?? 'did:example:invalid',
    modServiceUrl: 'https://moderator.invalid',
    modServiceDid: 'did:example:invalid',
  };
  const cfg = pds.envToCfg(env as never);
  let proxy: FaultProxy | undefined;
  if (opts.faultProxy) cfg.service.port = await freePort(); // publicUrl keeps `port`: the proxy's
  const server = await pds.PDS.create(cfg, pds.envToSecrets(env as never));
  await server.start();
  if (opts.faultProxy) proxy = await startFaultProxy(`http://127.0.0.1:${cfg.service.port}`, { port });
  const url = `http://localhost:${port}`;
  if (opts.appView) opts.appView.pdsUrl = `http://127.0.0.1:${cfg.service.port}`;

  const xrpc = async <T>(method: string, opts: XrpcCall = {}): Promise<T> => {
    const u = new URL(`/xrpc/${method}`, url);
    for (const [k, v] of Object.entries(opts.params ?? {})) u.searchParams.set(k, v);
    const headers: Record<string, string> = {};
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    let body: BodyInit | undefined;
    if (opts.raw) {
      body = new Blob([opts.raw as Uint8Array<ArrayBuffer>]);
      headers['content-type'] = opts.contentType ?? 'application/octet-stream';
    } else if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['content-type'] = 'application/json';
    }
    const res = await fetch(u, { method: body || opts.post ? 'POST' : 'GET', headers, body });
    const text = await res.text();
    const parsed = text ? JSON.parse(text) : {};
    if (!res.ok) throw new XrpcFailure(res.status, parsed.error ?? 'Unknown', parsed.message ?? text);
    return parsed as T;
  };

  let counter = 0;
  const createAccount = async (name: string): Promise<PdsAccount> => {
    counter += 1;
    const handle = `${name}.test`;
    const email = `${name}-${counter}@example.test`;
    const password = `main-password-${name}-${counter}`;
    const session = await xrpc<{ did: string; accessJwt: string; refreshJwt: string }>(
      'com.atproto.server.createAccount',
      {
        body: { email, handle, password },
      },
    );
    const app = await xrpc<{ password: string }>('com.atproto.server.createAppPassword', {
      body: { name: `herald-${counter}` },
      token: session.accessJwt,
    });
    return {
      did: session.did,
      handle,
      email,
      password,
      appPassword: app.password,
      accessJwt: session.accessJwt,
      refreshJwt: session.refreshJwt,
    };
  };

  const getRecord = (uri: string) => {
    const m = /^at:\/\/([^/]+)\/([^/]+)\/([^/]+)$/.exec(uri);
    if (!m) throw new Error(`not an at-uri: ${uri}`);
    return xrpc<{ uri: string; cid: string; value: any }>('com.atproto.repo.getRecord', {
      params: { repo: m[1], collection: m[2], rkey: m[3] },
    });
  };

  const listPosts = async (did: string) => {
    const out = await xrpc<{ records: { uri: string; cid: string; value: any }[] }>('com.atproto.repo.listRecords', {
      params: { repo: did, collection: 'app.bsky.feed.post', limit: '100' },
    });
    return out.records;
  };

  const expired = (jwt: string) => {
    const [header, payload] = jwt.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    const now = Math.floor(Date.now() / 1000);
    const body = Buffer.from(JSON.stringify({ ...claims, iat: now - 3 * 3600, exp: now - 3600 })).toString('base64url');
    const sig = crypto.createHmac('sha256', Buffer.from(JWT_SECRET)).update(`${header}.${body}`).digest('base64url');
    return `${header}.${body}.${sig}`;
  };

  const close = async () => {
    await proxy?.close();
    await server.destroy();
    await plcServer.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  };

  return {
    url,
    plcUrl,
    startMs: Date.now() - started,
    createAccount,
    xrpc,
    expired,
    getRecord,
    listPosts,
    proxy,
    close,
  };
}
