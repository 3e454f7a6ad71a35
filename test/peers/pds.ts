/**
 * A real Bluesky PDS (@atproto/pds) with a local PLC directory (@did-plc/server, in memory), in
 * this process, on random loopback ports, with SQLite and blobs in a temp folder. Nothing leaves
 * the machine: the appview and moderation services point at `.invalid` hosts, so `app.bsky.*`
 * reads fail (502) exactly as they do on a PDS without an appview; read back with
 * com.atproto.repo.* instead. Starting takes a few seconds (mostly loading the modules): share one
 * per test file.
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import * as pdsModule from '@atproto/pds';
import * as plcModule from '@did-plc/server';
import { Secp256k1Keypair } from '@atproto/crypto';

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
  xrpc<T = any>(method: string, opts?: { params?: Record<string, string>; body?: unknown; token?: string; raw?: Buffer; contentType?: string }): Promise<T>;
  getRecord(uri: string): Promise<{ uri: string; cid: string; value: any }>;
  listPosts(did: string): Promise<{ uri: string; cid: string; value: any }[]>;
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

/** Both packages are CommonJS; under ESM their exports may sit on `default`. */
const cjs = <T>(mod: T): T => ((mod as { default?: T }).default ?? mod);

export class XrpcFailure extends Error {
  constructor(readonly status: number, readonly error: string, message: string) {
    super(`${status} ${error}: ${message}`);
  }
}

export async function startPds(): Promise<PdsPeer> {
  const started = Date.now();
  const plc = cjs(plcModule);
  const pds = cjs(pdsModule);
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
    jwtSecret: 'jwt-secret-for-tests',
    serviceHandleDomains: ['.test'],
    inviteRequired: false,
    disableSsrfProtection: true,
    bskyAppViewUrl: 'https://appview.invalid',
    bskyAppViewDid: 'did:example:invalid',
    modServiceUrl: 'https://moderator.invalid',
    modServiceDid: 'did:example:invalid',
  };
  const server = await pds.PDS.create(pds.envToCfg(env as never), pds.envToSecrets(env as never));
  await server.start();
  const url = `http://localhost:${port}`;

  const xrpc = async <T,>(method: string, opts: { params?: Record<string, string>; body?: unknown; token?: string; raw?: Buffer; contentType?: string } = {}): Promise<T> => {
    const u = new URL(`/xrpc/${method}`, url);
    for (const [k, v] of Object.entries(opts.params ?? {})) u.searchParams.set(k, v);
    const headers: Record<string, string> = {};
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    let body: BodyInit | undefined;
    if (opts.raw) { body = new Blob([opts.raw as Uint8Array<ArrayBuffer>]); headers['content-type'] = opts.contentType ?? 'application/octet-stream'; }
    else if (opts.body !== undefined) { body = JSON.stringify(opts.body); headers['content-type'] = 'application/json'; }
    const res = await fetch(u, { method: body ? 'POST' : 'GET', headers, body });
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
    const session = await xrpc<{ did: string; accessJwt: string; refreshJwt: string }>('com.atproto.server.createAccount', {
      body: { email, handle, password },
    });
    const app = await xrpc<{ password: string }>('com.atproto.server.createAppPassword', {
      body: { name: `herald-${counter}` }, token: session.accessJwt,
    });
    return { did: session.did, handle, email, password, appPassword: app.password, accessJwt: session.accessJwt, refreshJwt: session.refreshJwt };
  };

  const getRecord = (uri: string) => {
    const m = /^at:\/\/([^/]+)\/([^/]+)\/([^/]+)$/.exec(uri);
    if (!m) throw new Error(`not an at-uri: ${uri}`);
    return xrpc<{ uri: string; cid: string; value: any }>('com.atproto.repo.getRecord', { params: { repo: m[1], collection: m[2], rkey: m[3] } });
  };

  const listPosts = async (did: string) => {
    const out = await xrpc<{ records: { uri: string; cid: string; value: any }[] }>('com.atproto.repo.listRecords', {
      params: { repo: did, collection: 'app.bsky.feed.post', limit: '100' },
    });
    return out.records;
  };

  const close = async () => {
    await server.destroy();
    await plcServer.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  };

  return { url, plcUrl, startMs: Date.now() - started, createAccount, xrpc, getRecord, listPosts, close };
}
