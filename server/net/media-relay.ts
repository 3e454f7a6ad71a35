/**
 * The media relay: an S3-compatible bucket the user owns (AWS S3, Cloudflare R2, Backblaze B2,
 * MinIO), where Herald puts a file just before a network that only fetches media by URL
 * (Threads) needs it, and deletes it afterwards. Requests are signed with AWS Signature V4 by
 * aws4fetch (small, no dependencies, WebCrypto); bodies stream from disk with
 * `UNSIGNED-PAYLOAD`, which S3 and its look-alikes accept over any transport, so a file is never
 * read twice (once to hash, once to send) nor held in memory.
 *
 * Addresses: the endpoint is checked by the address guard after DNS, and the connection goes to
 * the checked address only (no rebinding). Loopback and private addresses pass, unlike a URL in a
 * post: the relay is the owner's own storage, set only by the owner, and a MinIO at home is a
 * normal place for it. Link-local (cloud metadata) and the special ranges stay refused.
 * Path-style URLs (`endpoint/bucket/key`): every S3 look-alike takes them, virtual hosts not.
 */
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { Readable } from 'node:stream';
import { AwsV4Signer } from 'aws4fetch';
import { GuardedFetcher, type ResolvedAddress } from './guarded-fetch.js';

export interface S3RelayConfig {
  endpoint: string;
  region: string;
  bucket: string;
  /** Put before every key, e.g. `herald/` (may be empty). */
  prefix: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Where the bucket's objects are public (a CDN or a public bucket); else presigned GET URLs. */
  publicBaseUrl?: string;
  urlTtlSeconds: number;
}

/** The steps the relay takes, named in failures (the Settings Test button says which one failed). */
export type RelayStep = 'put' | 'fetch' | 'delete';

/** A relay request that failed: the step, and why in words a person can act on. */
export class RelayError extends Error {
  constructor(
    readonly step: RelayStep,
    message: string,
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

interface Answer {
  status: number;
  body: Buffer;
  contentType: string;
}

/** S3 answers errors as `<Error><Code>…</Code><Message>…</Message></Error>`. */
function s3Error(body: Buffer): { code?: string; message?: string } {
  const text = body.subarray(0, 8192).toString('utf8');
  const pick = (tag: string) => new RegExp(`<${tag}>([^<]{0,500})</${tag}>`).exec(text)?.[1];
  return { code: pick('Code'), message: pick('Message') };
}

const STEP_WORDS: Record<RelayStep, string> = {
  put: 'upload a file to',
  fetch: 'read a file back from',
  delete: 'delete a file from',
};

/** What a refusal means for the person setting the relay up. */
function explain(step: RelayStep, bucket: string, a: Answer): string {
  const { code, message } = s3Error(a.body);
  const what = `Herald could not ${STEP_WORDS[step]} the bucket`;
  switch (code) {
    case 'InvalidAccessKeyId':
      return `${what}: the storage does not know this access key id (${code}); check the access key id`;
    case 'SignatureDoesNotMatch':
      return `${what}: the secret access key does not match the access key id (${code}); paste the secret again`;
    case 'NoSuchBucket':
      return `${what}: there is no bucket "${bucket}" at this endpoint (${code}); check the bucket name`;
    case 'AccessDenied':
      return `${what}: the key may not do this (${code}); allow it to put, get and delete objects in "${bucket}"`;
    case 'AuthorizationHeaderMalformed':
    case 'InvalidRegion':
      return `${what}: the storage refused the region (${code}${message ? `: ${message}` : ''}); check the region`;
    default:
      return `${what}: it answered HTTP ${a.status}${code ? ` ${code}` : ''}${message ? ` (${message})` : ''}`;
  }
}

/** Encodes each segment of an object key for the URL path, keeping its slashes. */
const keyPath = (key: string) => key.split('/').map(encodeURIComponent).join('/');

export class S3Relay {
  /** Between bytes of an answer or an upload, ms: a big file over a slow line keeps moving. */
  idleTimeoutMs = 30_000;

  constructor(
    readonly config: S3RelayConfig,
    private readonly guard: GuardedFetcher = new GuardedFetcher({ allowPrivate: true }),
  ) {}

  /** The object's path-style URL at the endpoint. */
  objectUrl(key: string): URL {
    const base = this.config.endpoint.replace(/\/+$/, '');
    return new URL(`${base}/${encodeURIComponent(this.config.bucket)}/${keyPath(key)}`);
  }

  private signer(method: string, url: URL, extra: Record<string, string> = {}, signQuery = false) {
    return new AwsV4Signer({
      method,
      url: url.href,
      headers: extra,
      accessKeyId: this.config.accessKeyId,
      secretAccessKey: this.config.secretAccessKey,
      service: 's3',
      region: this.config.region,
      signQuery,
    });
  }

  /** The address a network fetches the object from: publicBaseUrl + key, else a presigned GET. */
  async fetchUrl(key: string): Promise<string> {
    if (this.config.publicBaseUrl) return `${this.config.publicBaseUrl.replace(/\/+$/, '')}/${keyPath(key)}`;
    const url = this.objectUrl(key);
    url.searchParams.set('X-Amz-Expires', String(this.config.urlTtlSeconds));
    const signed = await this.signer('GET', url, {}, true).sign();
    return signed.url.href;
  }

  /** PUTs a file from disk, streamed. */
  async putFile(key: string, file: { path: string; size: number; mime: string }, signal?: AbortSignal): Promise<void> {
    const headers = { 'content-type': file.mime, 'content-length': String(file.size) };
    const open = () => fs.createReadStream(file.path);
    await this.send('put', 'PUT', this.objectUrl(key), headers, open, signal);
  }

  /** PUTs a small object from memory (the Test button's). */
  async putBytes(key: string, bytes: Buffer, mime: string): Promise<void> {
    const headers = { 'content-type': mime, 'content-length': String(bytes.length) };
    await this.send('put', 'PUT', this.objectUrl(key), headers, () => bytes);
  }

  async delete(key: string, signal?: AbortSignal): Promise<void> {
    await this.send('delete', 'DELETE', this.objectUrl(key), {}, undefined, signal);
  }

  /** GETs a URL (as the network would), without signing: the presigned or public address. */
  async fetchBack(url: string): Promise<Buffer> {
    const a = await this.request('fetch', 'GET', new URL(url), {}, undefined);
    if (a.status < 200 || a.status > 299)
      throw new RelayError('fetch', explain('fetch', this.config.bucket, a), a.status);
    return a.body;
  }

  private async send(
    step: RelayStep,
    method: string,
    url: URL,
    headers: Record<string, string>,
    body?: () => Buffer | Readable,
    signal?: AbortSignal,
  ): Promise<void> {
    const signed = await this.signer(method, url, headers).sign();
    const all: Record<string, string> = {};
    signed.headers.forEach((v, k) => (all[k] = v));
    const a = await this.request(step, method, url, all, body, signal);
    if (a.status < 200 || a.status > 299) throw new RelayError(step, explain(step, this.config.bucket, a), a.status);
  }

  private async request(
    step: RelayStep,
    method: string,
    url: URL,
    headers: Record<string, string>,
    body: (() => Buffer | Readable) | undefined,
    signal?: AbortSignal,
  ): Promise<Answer> {
    let address: ResolvedAddress;
    try {
      address = (await this.guard.check(url)).address;
    } catch (err) {
      throw new RelayError(step, `Herald will not connect to ${url.host}: ${(err as Error).message}`, undefined, {
        cause: err,
      });
    }
    // Whatever name the client library asks about, the answer is the address already checked.
    const lookup = ((_h: string, o: { all?: boolean }, cb: (...args: unknown[]) => void) =>
      o?.all ? cb(null, [address]) : cb(null, address.address, address.family)) as unknown as LookupFunction;
    const mod = url.protocol === 'https:' ? https : http;
    return new Promise<Answer>((resolve, reject) => {
      const fail = (err: Error) =>
        reject(
          err instanceof RelayError
            ? err
            : new RelayError(step, `Herald could not reach the storage at ${url.host}: ${err.message}`, undefined, {
                cause: err,
              }),
        );
      const req = mod.request(url, { method, headers, lookup, agent: false, signal });
      req.setTimeout(this.idleTimeoutMs, () =>
        req.destroy(new Error(`no answer for ${Math.round(this.idleTimeoutMs / 1000)} s`)),
      );
      req.on('error', fail);
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          // Answers here are small (XML errors, the Test button's object); more is not read.
          if ((size += c.length) <= 1024 * 1024) chunks.push(c);
        });
        res.on('error', fail);
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks),
            contentType: String(res.headers['content-type'] ?? ''),
          }),
        );
      });
      const b = body?.();
      if (!b) req.end();
      else if (Buffer.isBuffer(b)) req.end(b);
      else {
        b.on('error', (err) => req.destroy(err));
        b.pipe(req);
      }
    });
  }

  /**
   * The Test button: puts a small object, reads it back from the address a network would get,
   * deletes it. Never throws for the storage's refusals; `message` names the step that failed.
   */
  async selfTest(key: string): Promise<{ ok: boolean; message: string }> {
    const bytes = Buffer.from(`Herald media relay test ${key}\n`);
    let step: RelayStep = 'put';
    let put = false;
    try {
      await this.putBytes(key, bytes, 'text/plain');
      put = true;
      step = 'fetch';
      const back = await this.fetchBack(await this.fetchUrl(key));
      if (!back.equals(bytes))
        throw new RelayError(
          'fetch',
          this.config.publicBaseUrl
            ? `The file read back from publicBaseUrl is not the one Herald put: check that publicBaseUrl ` +
                `serves this bucket`
            : 'The file read back is not the one Herald put',
        );
      step = 'delete';
      await this.delete(key);
      put = false;
      const how = this.config.publicBaseUrl ? 'its public address' : 'a presigned address';
      return { ok: true, message: `Herald put a file in "${this.config.bucket}", read it from ${how}, and deleted it` };
    } catch (err) {
      if (put) await this.delete(key).catch(() => undefined);
      const e = err instanceof RelayError ? err : new RelayError(step, (err as Error).message);
      return { ok: false, message: `${e.step} step failed: ${e.message}` };
    }
  }
}
