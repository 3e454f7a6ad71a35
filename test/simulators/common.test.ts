// Cross-cutting behaviour of the simulators: canary tokens, fault filters, per-request latency.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startXSimulator,
  startMastodonSimulator,
  startThreadsSimulator,
  startLinkedInSimulator,
  CANARY_PATTERN,
} from './index.js';
import { Faults, parseMultipart, formToObject } from './common.js';

const sims: { close(): Promise<void> }[] = [];
let x: Awaited<ReturnType<typeof startXSimulator>>;
beforeAll(async () => {
  x = await startXSimulator({ latencyMs: 100 });
  sims.push(x);
});
afterAll(async () => {
  for (const s of sims) await s.close();
});

describe('simulator plumbing', () => {
  it('adds latency per request without serialising concurrent requests', async () => {
    const t0 = Date.now();
    const all = await Promise.all(Array.from({ length: 10 }, () => fetch(`${x.url}/2/users/me`)));
    const took = Date.now() - t0;
    expect(all.every((r) => r.status === 401)).toBe(true);
    expect(took).toBeGreaterThanOrEqual(95);
    expect(took).toBeLessThan(800);
  });

  it('applies faults only to matching routes, the given number of times', () => {
    const f = new Faults();
    f.next({ kind: '500' }, { route: 'POST /2/tweets', times: 2 });
    f.next({ kind: '429', resetInSeconds: 5 }, { route: /^GET / });
    expect(f.take('GET', '/2/users/me')?.kind).toBe('429');
    expect(f.take('GET', '/2/users/me')).toBeUndefined();
    expect(f.take('POST', '/2/tweets')?.kind).toBe('500');
    expect(f.take('POST', '/2/tweets')?.kind).toBe('500');
    expect(f.take('POST', '/2/tweets')).toBeUndefined();
    expect(f.fired.map((e) => `${e.kind} ${e.method} ${e.path}`)).toEqual([
      '429 GET /2/users/me',
      '500 POST /2/tweets',
      '500 POST /2/tweets',
    ]);
    expect(f.pending()).toBe(0);
  });

  it('parses multipart bodies and repeated form keys', () => {
    const raw = Buffer.from(
      '--b\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--b\r\nContent-Disposition: form-data; ' +
        'name="file"; filename="f.bin"\r\nContent-Type: application/octet-stream\r\n\r\n\x00\x01\r\n--b--\r\n',
      'latin1',
    );
    const parts = parseMultipart(raw, 'b');
    expect(parts.map((p) => [p.name, p.filename, p.data.length])).toEqual([
      ['a', undefined, 1],
      ['file', 'f.bin', 2],
    ]);
    expect(formToObject(new URLSearchParams('media_ids[]=1&media_ids[]=2&x=3'))).toEqual({
      media_ids: ['1', '2'],
      x: '3',
    });
  });

  it('every network issues tokens that carry a greppable canary', async () => {
    const m = await startMastodonSimulator();
    const t = await startThreadsSimulator();
    const l = await startLinkedInSimulator();
    sims.push(m, t, l);
    const app = m.registerApp(['http://127.0.0.1/cb'], 'read');
    expect(app.clientSecret).toMatch(CANARY_PATTERN);
    const code = new URL(
      (
        await fetch(
          `${l.authorizeUrl}?response_type=code&client_id=${l.clientId}&redirect_uri=http://127.0.0.1/cb&scope=openid`,
          { redirect: 'manual' },
        )
      ).headers.get('location')!,
    ).searchParams.get('code')!;
    const tok = await fetch(l.tokenUrl, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        client_id: l.clientId,
        client_secret: l.clientSecret,
        redirect_uri: 'http://127.0.0.1/cb',
      }),
    });
    const text = await tok.text();
    expect(text.match(new RegExp(CANARY_PATTERN, 'g'))).toHaveLength(1);
    expect(l.state.issuedTokens).toHaveLength(1);
    const tcode = new URL(
      (
        await fetch(
          `${t.authorizeUrl}?client_id=` +
            `${t.clientId}&redirect_uri=http://127.0.0.1/cb&scope=threads_basic&response_type=code`,
          { redirect: 'manual' },
        )
      ).headers.get('location')!,
    ).searchParams.get('code')!;
    expect(tcode).toMatch(CANARY_PATTERN);
  });
});
