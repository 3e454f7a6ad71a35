/**
 * Bluesky's rate limits, from a real PDS with its own limits switched on (createSession: 30 per
 * 5 minutes per identifier): the 31st sign-in through Herald's API answers 429 RATE_LIMITED with
 * a Retry-After that matches the PDS's RateLimit-Reset, and the adapter's error carries that reset.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PlatformError } from '../../server/platforms/errors.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { startPds, type PdsAccount, type PdsPeer } from './pds.js';

let pds: PdsPeer;
let t: TestServer;
let key: string;
let erin: PdsAccount;

beforeAll(async () => {
  pds = await startPds({ rateLimits: true });
  t = await startServer();
  key = await t.login();
  erin = await pds.createAccount('erin');
});

afterAll(async () => {
  await t?.close();
  await pds?.close();
});

it("a 429 from the PDS becomes RATE_LIMITED with the network's reset time", async () => {
  const connect = () =>
    t.call('POST', '/skyblog/auth', {
      key,
      body: { identifier: erin.handle, appPassword: erin.appPassword, service: pds.url },
    });
  for (let i = 0; i < 30; i++) {
    const r = await connect();
    expect(r.status, r.text).toBe(200);
  }
  const limited = await connect();
  expect(limited.status).toBe(429);
  expect(limited.body.error).toBe('RATE_LIMITED');

  // What the PDS itself says about the window.
  const probe = await fetch(`${pds.url}/xrpc/com.atproto.server.createSession`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ identifier: erin.handle, password: erin.appPassword }),
  });
  expect(probe.status).toBe(429);
  const resetSeconds = Number(probe.headers.get('ratelimit-reset'));
  expect(resetSeconds * 1000).toBeGreaterThan(Date.now());
  const retryAfter = Number(limited.headers.get('retry-after'));
  expect(Math.abs(Date.now() / 1000 + retryAfter - resetSeconds)).toBeLessThanOrEqual(3);

  const err = await t.server.deps.platforms.get('skyblog').passwordLogin!({
    identifier: erin.handle,
    password: erin.appPassword,
    service: pds.url,
    network: t.server.config.networks.skyblog,
  }).catch((e) => e);
  expect(err).toBeInstanceOf(PlatformError);
  expect(err.kind).toBe('rate_limited');
  expect(err.resetAt).toBe(resetSeconds * 1000);
  // Still one account: the refused sign-in changed nothing.
  expect((await t.call('GET', '/accounts', { key })).body.accounts).toHaveLength(1);
}, 120_000);
