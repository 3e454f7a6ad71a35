/**
 * Settings → Media relay over HTTP (docs/decisions.md §11) against a real S3-compatible server on
 * loopback (s3rver behind a Signature V4 check, test/peers/s3.peer.ts): the secret goes to the
 * secret store and is never answered back; the Test button puts, fetches and deletes a small
 * object and, when a step fails, names it and why (a wrong key id, a wrong secret, an unknown
 * bucket, an unreachable endpoint, a bucket whose objects cannot be read back); nothing is left
 * in the bucket either way. Only the owner changes or tests the relay; an endpoint at a
 * link-local (cloud metadata) address is refused, while a MinIO on loopback is fine.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startS3, type S3Peer } from '../peers/s3.peer.js';
import { addUser, closedPort, startServer, type TestServer } from '../helpers/server.js';

vi.setConfig({ testTimeout: 30_000 });

let s3: S3Peer;
let t: TestServer;
let key: string;

const relayBody = (over: Record<string, unknown> = {}) => ({
  kind: 's3',
  endpoint: s3.endpoint,
  region: s3.region,
  bucket: s3.bucket,
  prefix: 'herald',
  accessKeyId: s3.accessKeyId,
  secretAccessKey: s3.secretAccessKey,
  ...over,
});
const put = (body: Record<string, unknown>, k = key) => t.call('PUT', '/media-relay', { key: k, body });
const test = async () => {
  const r = await t.call('POST', '/media-relay/test', { key });
  expect(r.status, r.text).toBe(200);
  return r.body as { success: true; ok: boolean; message: string };
};

beforeAll(async () => {
  // Herald's own address switch off: the relay's loopback endpoint passes on its own rule.
  [s3, t] = await Promise.all([startS3(), startServer({ settings: { HERALD_ALLOW_PRIVATE_ADDRESSES: '0' } })]);
  key = await t.login();
});

afterAll(async () => {
  await t?.close();
  await s3?.close();
});

describe('setting up the relay', () => {
  it('answers null before one is set up, and the Test button says so', async () => {
    const r = await t.call('GET', '/media-relay', { key });
    expect(r.body).toEqual({ success: true, relay: null });
    expect(await test()).toMatchObject({ ok: false, message: expect.stringMatching(/No media relay is set up/) });
  });

  it('keeps the secret in the secret store and never answers it back', async () => {
    const r = await put(relayBody());
    expect(r.status, r.text).toBe(200);
    expect(r.body.relay).toEqual({
      kind: 's3',
      endpoint: s3.endpoint,
      region: 'us-east-1',
      bucket: s3.bucket,
      prefix: 'herald/',
      accessKeyId: s3.accessKeyId,
      publicBaseUrl: null,
      urlTtlSeconds: 3600,
    });
    const got = await t.call('GET', '/media-relay', { key });
    expect(got.body.relay).toEqual(r.body.relay);
    expect(got.text).not.toContain(s3.secretAccessKey);
    expect(await t.server.deps.secrets.get('media-relay')).toContain(s3.secretAccessKey);
    expect(JSON.stringify(t.server.deps.config)).not.toContain(s3.secretAccessKey);
  });

  it('passes the Test button against the real server: put, fetch, delete, nothing left', async () => {
    const before = s3.log.length;
    const r = await test();
    expect(r).toEqual({ success: true, ok: true, message: expect.stringMatching(/put a file in "herald-relay"/) });
    const steps = s3.log.slice(before).map((l) => [l.method, l.ok]);
    expect(steps).toEqual([
      ['PUT', true],
      ['GET', true],
      ['DELETE', true],
    ]);
    expect(await s3.keys()).toEqual([]);
  });

  it('keeps the saved secret when a change leaves it out', async () => {
    const { secretAccessKey: _s, ...rest } = relayBody({ urlTtlSeconds: 600 });
    const r = await put(rest);
    expect(r.status, r.text).toBe(200);
    expect(r.body.relay.urlTtlSeconds).toBe(600);
    expect((await test()).ok).toBe(true);
  });

  it('refuses a non-owner (403) and a link-local endpoint (400), and takes a MinIO on loopback', async () => {
    const other = await addUser(t, 'relay-other@example.test');
    expect((await put(relayBody(), other)).status).toBe(403);
    expect((await t.call('POST', '/media-relay/test', { key: other })).status).toBe(403);
    const meta = await put(relayBody({ endpoint: 'http://169.254.169.254' }));
    expect(meta.status, meta.text).toBe(400);
    expect(meta.body.details[0].path).toBe('body.endpoint');
    const bad = await put(relayBody({ bucket: 'Not_A_Bucket' }));
    expect(bad.status).toBe(400);
    expect(bad.body.details[0].path).toBe('body.bucket');
    expect((await put(relayBody())).status).toBe(200);
  });
});

describe('the Test button names the step that failed', () => {
  const failing: [string, () => Promise<Record<string, unknown>>, RegExp][] = [
    [
      'a wrong access key id',
      async () => relayBody({ accessKeyId: 'NOSUCHKEY' }),
      /^put step failed: .*does not know this access key id \(InvalidAccessKeyId\)/,
    ],
    [
      'a wrong secret',
      async () => relayBody({ secretAccessKey: 'not-the-secret' }),
      /^put step failed: .*secret access key does not match .*\(SignatureDoesNotMatch\)/,
    ],
    [
      'an unknown bucket',
      async () => relayBody({ bucket: 'no-such-bucket' }),
      /^put step failed: .*no bucket "no-such-bucket" .*\(NoSuchBucket\)/,
    ],
    [
      'an unreachable endpoint',
      async () => relayBody({ endpoint: `http://127.0.0.1:${await closedPort()}` }),
      /^put step failed: Herald could not reach the storage at 127\.0\.0\.1:\d+/,
    ],
  ];
  for (const [what, body, message] of failing) {
    it(what, async () => {
      expect((await put(await body())).status).toBe(200);
      const r = await test();
      expect(r.ok).toBe(false);
      expect(r.message).toMatch(message);
      expect(await s3.keys()).toEqual([]);
    });
  }

  it('objects that cannot be read back: the fetch step, and the object is deleted all the same', async () => {
    expect((await put(relayBody())).status).toBe(200);
    s3.refuseGets = true;
    try {
      const r = await test();
      expect(r.ok).toBe(false);
      expect(r.message).toMatch(/^fetch step failed: .*\(AccessDenied\)|^fetch step failed: .*HTTP 403/);
    } finally {
      s3.refuseGets = false;
    }
    expect(await s3.keys()).toEqual([]);
  });

  it('DELETE removes the relay and its secret', async () => {
    const r = await t.call('DELETE', '/media-relay', { key });
    expect(r.body).toEqual({ success: true, relay: null });
    expect(await t.server.deps.secrets.get('media-relay')).toBeNull();
    expect((await t.call('GET', '/media-relay', { key })).body.relay).toBeNull();
  });
});
