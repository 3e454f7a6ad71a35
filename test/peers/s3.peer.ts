/**
 * A real S3-compatible server on loopback for the media relay's tests: s3rver (the S3 protocol
 * over a folder) behind a Signature V4 check. s3rver does not check V4 signatures at all, so
 * without the check a test would pass with wrong keys. The check is @smithy/signature-v4 (the
 * AWS SDK's own signer, an implementation independent of the one Herald signs with): it signs
 * the request again with the known secret and compares, for the Authorization header and for
 * presigned URLs (whose expiry it also enforces). A refused request gets S3's own XML error
 * (InvalidAccessKeyId, SignatureDoesNotMatch, AccessDenied for an expired URL); an accepted one
 * reaches s3rver without its signature, streamed both ways.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { SignatureV4 } from '@smithy/signature-v4';
import { Transform, type Readable } from 'node:stream';
import S3rver from 's3rver';

export interface S3Peer {
  /** The endpoint Herald is given (the checking proxy), e.g. http://127.0.0.1:40123. */
  endpoint: string;
  port: number;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Every request that reached the check: method, path, and whether it passed. */
  log: { method: string; path: string; ok: boolean }[];
  /** The keys in the bucket now (read from s3rver's own listing). */
  keys(): Promise<string[]>;
  /** The bytes of one object, read straight from s3rver. */
  object(key: string): Promise<Buffer | null>;
  /** Stops answering object GETs (as a bucket Threads cannot reach). */
  refuseGets: boolean;
  close(): Promise<void>;
}

const bytes = (d: ArrayBuffer | ArrayBufferView | string): Buffer | string =>
  typeof d === 'string'
    ? d
    : ArrayBuffer.isView(d)
      ? Buffer.from(d.buffer, d.byteOffset, d.byteLength)
      : Buffer.from(d);

/** SHA-256 for @smithy/signature-v4, from node:crypto (the SDK's own hash packages are not needed). */
class Sha256 {
  private readonly h: crypto.Hash | crypto.Hmac;
  constructor(secret?: ArrayBuffer | ArrayBufferView | string) {
    this.h = secret === undefined ? crypto.createHash('sha256') : crypto.createHmac('sha256', bytes(secret));
  }
  update(data: ArrayBuffer | ArrayBufferView | string): void {
    this.h.update(bytes(data));
  }
  async digest(): Promise<Uint8Array> {
    return new Uint8Array(this.h.digest());
  }
}

function s3Error(res: http.ServerResponse, status: number, code: string, message: string): void {
  res.writeHead(status, { 'content-type': 'application/xml' });
  res.end(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${message}</Message></Error>`);
}

/** The date in an X-Amz-Date (20261128T121500Z). */
function amzDate(s: string): Date | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(s);
  return m ? new Date(Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6])) : undefined;
}

const AUTH_QUERY = ['X-Amz-Algorithm', 'X-Amz-Credential', 'X-Amz-Date', 'X-Amz-Expires', 'X-Amz-SignedHeaders'];

/** Why the request's V4 signature is wrong, or undefined when it is right. */
async function refusal(
  req: http.IncomingMessage,
  url: URL,
  keys: { accessKeyId: string; secretAccessKey: string; region: string },
): Promise<[status: number, code: string, message: string] | undefined> {
  const signer = new SignatureV4({
    credentials: { accessKeyId: keys.accessKeyId, secretAccessKey: keys.secretAccessKey },
    region: keys.region,
    service: 's3',
    sha256: Sha256,
    uriEscapePath: false,
  });
  const query: Record<string, string> = {};
  url.searchParams.forEach((v, k) => (query[k] = v));
  const presigned = 'X-Amz-Signature' in query;
  const auth = String(req.headers.authorization ?? '');
  if (!presigned && !auth) return [403, 'AccessDenied', 'Anonymous access is not allowed'];
  const cred = presigned ? query['X-Amz-Credential'] : (/Credential=([^,]+)/.exec(auth)?.[1] ?? '');
  const [keyId, day, region] = cred.split('/');
  if (keyId !== keys.accessKeyId)
    return [403, 'InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist in our records.'];
  if (region !== keys.region)
    return [400, 'AuthorizationHeaderMalformed', `the region '${region}' is wrong; expecting '${keys.region}'`];
  const signed = (presigned ? query['X-Amz-SignedHeaders'] : (/SignedHeaders=([^,]+)/.exec(auth)?.[1] ?? '')).split(
    ';',
  );
  const headers: Record<string, string> = {};
  for (const h of signed) headers[h] = String(req.headers[h] ?? '');
  const date = amzDate(presigned ? query['X-Amz-Date'] : String(req.headers['x-amz-date'] ?? ''));
  if (!date || !date.toISOString().replace(/-/g, '').startsWith(day))
    return [403, 'AccessDenied', 'X-Amz-Date is missing or does not match the credential'];
  const request = { method: req.method!, protocol: 'http:', hostname: url.hostname, path: url.pathname, headers };
  if (presigned) {
    const expires = Number(query['X-Amz-Expires']);
    if (Date.now() > date.getTime() + expires * 1000) return [403, 'AccessDenied', 'Request has expired'];
    const rest = Object.fromEntries(
      Object.entries(query).filter(([k]) => !AUTH_QUERY.includes(k) && k !== 'X-Amz-Signature'),
    );
    // A presigned URL signs no body: S3 reads its payload hash as UNSIGNED-PAYLOAD.
    const again = await signer.presign(
      { ...request, headers: { ...headers, 'x-amz-content-sha256': 'UNSIGNED-PAYLOAD' }, query: rest },
      {
        signingDate: date,
        expiresIn: expires,
        unsignableHeaders: new Set(['x-amz-content-sha256']),
        unhoistableHeaders: new Set(['x-amz-content-sha256']),
      },
    );
    if (again.query?.['X-Amz-Signature'] !== query['X-Amz-Signature'])
      return [403, 'SignatureDoesNotMatch', 'The request signature we calculated does not match the signature'];
    return undefined;
  }
  const again = await signer.sign({ ...request, query }, { signingDate: date, signableHeaders: new Set(signed) });
  const want = /Signature=([0-9a-f]+)/.exec(String(again.headers.authorization))?.[1];
  const got = /Signature=([0-9a-f]+)/.exec(auth)?.[1];
  if (!want || want !== got)
    return [403, 'SignatureDoesNotMatch', 'The request signature we calculated does not match the signature'];
  return undefined;
}

/**
 * A shared uplink of `rate` bytes a second: every request body, whichever connection it comes on,
 * waits its turn (the bench's home connection; tests leave it unset).
 */
function uplink(rate: number): (body: http.IncomingMessage) => Readable {
  let free = 0;
  return (body) =>
    body.pipe(
      new Transform({
        transform(chunk: Buffer, _enc, done) {
          free = Math.max(free, performance.now()) + (chunk.length / rate) * 1000;
          setTimeout(() => done(null, chunk), Math.max(0, free - performance.now()));
        },
      }),
    );
}

export async function startS3(
  opts: {
    bucket?: string;
    region?: string;
    accessKeyId?: string;
    secretAccessKey?: string;
    uploadBytesPerSecond?: number;
  } = {},
): Promise<S3Peer> {
  const throttle = opts.uploadBytesPerSecond ? uplink(opts.uploadBytesPerSecond) : undefined;
  const bucket = opts.bucket ?? 'herald-relay';
  const region = opts.region ?? 'us-east-1';
  const keys = {
    accessKeyId: opts.accessKeyId ?? 'HERALDTESTKEY0001',
    secretAccessKey: opts.secretAccessKey ?? crypto.randomBytes(20).toString('base64url'),
    region,
  };
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-s3-'));
  const s3 = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const inner = (await s3.run()) as AddressInfo;
  const innerUrl = `http://127.0.0.1:${inner.port}`;
  const log: S3Peer['log'] = [];
  const peer = { refuseGets: false } as S3Peer;

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', `http://${req.headers.host}`);
    void (async () => {
      if (peer.refuseGets && req.method === 'GET') {
        log.push({ method: 'GET', path: url.pathname, ok: false });
        return s3Error(res, 403, 'AccessDenied', 'Access Denied');
      }
      const why = await refusal(req, url, keys);
      log.push({ method: req.method ?? '', path: url.pathname, ok: !why });
      if (why) {
        req.resume();
        return s3Error(res, ...why);
      }
      // s3rver sees an anonymous request (it has no V4 check of its own to trip over).
      for (const k of [...AUTH_QUERY, 'X-Amz-Signature']) url.searchParams.delete(k);
      const headers = { ...req.headers };
      delete headers.authorization;
      const fwd = http.request(`${innerUrl}${url.pathname}${url.search}`, { method: req.method, headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      fwd.on('error', (err) => s3Error(res, 502, 'InternalError', err.message));
      (throttle ? throttle(req) : req).pipe(fwd);
    })().catch((err: Error) => s3Error(res, 500, 'InternalError', err.message));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  const innerGet = (p: string) =>
    new Promise<{ status: number; body: Buffer }>((resolve, reject) => {
      http
        .get(`${innerUrl}${p}`, (r) => {
          const chunks: Buffer[] = [];
          r.on('data', (c: Buffer) => chunks.push(c));
          r.on('end', () => resolve({ status: r.statusCode ?? 0, body: Buffer.concat(chunks) }));
        })
        .on('error', reject);
    });

  Object.assign(peer, {
    endpoint: `http://127.0.0.1:${port}`,
    port,
    bucket,
    ...keys,
    log,
    async keys() {
      const r = await innerGet(`/${bucket}`);
      return [...r.body.toString('utf8').matchAll(/<Key>([^<]*)<\/Key>/g)].map((m) => m[1]);
    },
    async object(key: string) {
      const r = await innerGet(`/${bucket}/${key}`);
      return r.status === 200 ? r.body : null;
    },
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
      await s3.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  });
  return peer;
}
