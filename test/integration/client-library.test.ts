/**
 * The client library against a real server: typed errors, opt-in 429 retry after Retry-After
 * (injected server clock), NETWORK_ERROR, the environment. Static checks: the client's types come
 * from the contracts, and the CLI reaches Herald only through the client. That every method
 * reaches its route and every route a method: client-library-coverage.test.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HeraldClient, HeraldError } from '../../client/index.js';
import { allRoutes } from '../../server/http/app.js';
import {
  calls,
  clock,
  key,
  recording,
  t,
  useClientLibraryServer,
  type Call,
} from '../helpers/client-library-server.js';
import { closedPort, OWNER } from '../helpers/server.js';

useClientLibraryServer();

describe('HeraldError', () => {
  it("carries the API's code, the HTTP status, the message and the validation details", async () => {
    calls.length = 0;
    const c = new HeraldClient({ baseUrl: t.base, apiKey: key, fetch: recording() });
    const missing = await c.getDraft('no-such-draft').catch((e) => e);
    expect(missing).toBeInstanceOf(HeraldError);
    expect(missing).toBeInstanceOf(Error);
    expect([missing.name, missing.code, missing.status, missing.message]).toEqual([
      'HeraldError',
      'NOT_FOUND',
      404,
      'Draft not found',
    ]);

    const invalid = await c.createDraft({ title: 'x', tweets: [] }).catch((e) => e);
    expect([invalid.code, invalid.status]).toEqual(['INVALID_INPUT', 400]);
    expect(invalid.details).toEqual([
      expect.objectContaining({ path: expect.stringContaining('tweets'), message: expect.any(String) }),
    ]);

    const wrong = await new HeraldClient({ baseUrl: t.base, apiKey: 'hk_wrong_000000000000000000000000000000' })
      .me()
      .catch((e) => e);
    expect([wrong.code, wrong.status]).toEqual(['INVALID_API_KEY', 401]);

    const before = calls.length;
    const none = await new HeraldClient({ baseUrl: t.base, apiKey: '', fetch: recording() }).me().catch((e) => e);
    expect([none.code, none.status]).toEqual(['INVALID_API_KEY', 401]);
    expect(calls.length, 'no key: nothing is sent').toBe(before);
  });

  it(
    'NETWORK_ERROR (status 0) when nothing listens; ' + 'INVALID_INPUT at once for a base URL that is not http(s)',
    async () => {
      const base = `http://127.0.0.1:${await closedPort()}/api/v1`;
      const down = await new HeraldClient({ baseUrl: base, apiKey: key }).listDrafts().catch((e) => e);
      expect(down).toBeInstanceOf(HeraldError);
      expect([down.code, down.status]).toEqual(['NETWORK_ERROR', 0]);
      expect(down.message).toContain(`Herald is not reachable at ${base}`);
      expect(down.message).toContain('ECONNREFUSED');
      for (const bad of ['localhost:4780', 'ftp://127.0.0.1/api/v1', 'not a url']) {
        expect(() => new HeraldClient({ baseUrl: bad })).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
      }
    },
  );

  it('reads HERALD_BASE_URL and HERALD_API_KEY when no options are given; options win', async () => {
    const saved = { url: process.env.HERALD_BASE_URL, key: process.env.HERALD_API_KEY };
    process.env.HERALD_BASE_URL = t.base;
    process.env.HERALD_API_KEY = key;
    try {
      const c = new HeraldClient();
      expect(c.baseUrl).toBe(t.base);
      expect((await c.me()).email).toBe(OWNER.email);
      expect(new HeraldClient({ baseUrl: 'http://127.0.0.1:1/api/v1/', apiKey: 'other' })).toMatchObject({
        baseUrl: 'http://127.0.0.1:1/api/v1',
        apiKey: 'other',
      });
    } finally {
      if (saved.url === undefined) delete process.env.HERALD_BASE_URL;
      else process.env.HERALD_BASE_URL = saved.url;
      if (saved.key === undefined) delete process.env.HERALD_API_KEY;
      else process.env.HERALD_API_KEY = saved.key;
    }
  });
});

describe('429 and Retry-After', () => {
  it(
    'no retry unless asked; retries after Retry-After when asked; gives up past maxRetryAfter or the retry ' + 'count',
    async () => {
      // One second before the hour: the free key's window ends in 1 s (Retry-After: 1).
      clock.set('2026-11-15T12:59:59.500Z');
      const free = (await t.call('POST', '/auth/api-keys', { key, body: { name: 'free', tier: 'free' } })).body.apiKey
        .key;
      for (let i = 0; i < 100; i++) expect((await t.call('GET', '/me', { key: free })).status).toBe(200);
      const client = (opts: ConstructorParameters<typeof HeraldClient>[0], onResponse?: (r: Response) => void) => {
        const mine: Call[] = [];
        const f = recording(onResponse);
        return {
          mine,
          c: new HeraldClient({
            baseUrl: t.base,
            apiKey: free,
            ...opts,
            fetch: async (i, init) => {
              const from = calls.length;
              const r = await f(i, init);
              mine.push(...calls.slice(from));
              return r;
            },
          }),
        };
      };

      const plain = client({});
      const e = await plain.c.me().catch((err) => err);
      expect([e.code, e.status, e.retryAfter]).toEqual(['RATE_LIMITED', 429, 1]);
      expect(plain.mine).toHaveLength(1);

      const capped = client({ retryRateLimited: 3, maxRetryAfter: 0 });
      expect((await capped.c.me().catch((err) => err)).code).toBe('RATE_LIMITED');
      expect(capped.mine).toHaveLength(1);

      const once = client({ retryRateLimited: 1 });
      const t0 = Date.now();
      expect((await once.c.me().catch((err) => err)).code).toBe('RATE_LIMITED');
      expect(once.mine.map((m) => m.status)).toEqual([429, 429]);
      expect(Date.now() - t0).toBeGreaterThanOrEqual(900);

      // The hour turns while the client waits (the server's clock moves on): the retry succeeds.
      const patient = client({ retryRateLimited: true }, (r) => {
        if (r.status === 429) clock.advance(1000);
      });
      const t1 = Date.now();
      expect((await patient.c.me()).email).toBe(OWNER.email);
      expect(patient.mine.map((m) => m.status)).toEqual([429, 200]);
      expect(Date.now() - t1).toBeGreaterThanOrEqual(900);
    },
  );
});

describe('static checks', () => {
  // The client is split by area (client-core.ts, *.methods.ts): the checks read every module of it.
  const src = fs
    .readdirSync('client')
    .filter((f) => f.endsWith('.ts'))
    .map((f) => fs.readFileSync(path.join('client', f), 'utf8'))
    .join('\n');

  it("the client's types are the contracts' types: no hand-written request or answer shapes", () => {
    const generics: string[] = [];
    for (let i = src.indexOf('this.request<'); i >= 0; i = src.indexOf('this.request<', i + 1)) {
      let depth = 0;
      let j = i + 'this.request'.length;
      for (; j < src.length; j++) {
        if (src[j] === '<') depth++;
        if (src[j] === '>' && --depth === 0) break;
      }
      generics.push(
        src
          .slice(i + 'this.request<'.length, j)
          .replace(/\s+/g, ' ')
          .trim(),
      );
    }
    expect(generics.length).toBeGreaterThanOrEqual(60);
    // string: a draft file's text
    for (const g of generics) expect(g).toMatch(/^(Out<typeof \w+\.\w+>|Message|Blob|string)$/);
    // Method parameters: contract inputs (In/QueryOf), ids and names; the one inline shape is the multipart file list.
    const methods = [...src.matchAll(/^ {2}(\w+)\(([^)]*)\) \{\n\s*return this\.request/gm)].map(
      ([, name, params]) => [name, params.replace(/\s+/g, ' ').trim().replace(/,$/, '')] as const,
    );
    expect(methods.length).toBeGreaterThanOrEqual(55);
    for (const [name, params] of methods) {
      if (name === 'uploadMedia') continue;
      expect(params.replace(/ = \{\}/g, ''), name).not.toMatch(/\{/);
      // `write: WriteOptions` carries the Idempotency-Key header, not a request shape.
      for (const p of params.split(/,(?![^<]*>)/).filter(Boolean))
        expect(p.trim(), name).toMatch(
          /^(\w+\??: (string|string\[\]|OAuthNetwork|(In|QueryOf|Omit)<.+>)( = \{\})?|write: WriteOptions = \{\})$/,
        );
    }
    // And no runtime import of the server: types only (runtime imports stay inside client/).
    expect(
      (src.match(/^import (?!type )[^;]*;$/gm) ?? []).filter((line) => !/ from '\.\/[\w.-]+\.js';$/.test(line)),
    ).toEqual([]);
  });

  it('the client offers an Idempotency-Key on exactly the routes whose RouteDef says idempotent', () => {
    const flagged = new Set(
      allRoutes(t.server.services)
        .filter((r) => r.idempotent)
        .map((r) => `${r.method.toUpperCase()} ${r.path.replace(/\$\{platform\}/, ':platform')}`),
    );
    const offered = new Set(
      [...src.matchAll(/\('(POST|PUT|PATCH|DELETE)', '([^']+)', \{[^;]*?idempotent: write/g)].map(
        (m) => `${m[1]} ${m[2]}`,
      ),
    );
    expect(flagged.size).toBeGreaterThanOrEqual(13);
    expect([...offered].sort()).toEqual([...flagged].sort());
  });

  it(
    'the CLI reaches Herald only through the client (serve runs the server; backup and restore work on the ' +
      'database file)',
    () => {
      // serve starts the server itself; backup/restore copy the SQLite file (restore only while
      // Herald is stopped): all three load the compiled server at run time (server-entry.ts).
      const files = fs
        .readdirSync('cli')
        .filter((f) => f.endsWith('.ts') && !/^(serve|backup|restore|server-entry)/.test(f));
      expect(files.length).toBeGreaterThanOrEqual(12);
      for (const f of files) {
        const text = fs.readFileSync(path.join('cli', f), 'utf8');
        expect(text, f).not.toMatch(/from '\.\.\/server\/|import\('\.\.\/server\//);
        expect(text, f).not.toMatch(/\bfetch\(|node:http|better-sqlite3/);
      }
      expect(fs.readFileSync('cli/serve.command.ts', 'utf8')).toMatch(/serverEntry<.*>\('main'\)/);
      expect(fs.readFileSync('cli/backup.command.ts', 'utf8')).toMatch(/serverEntry<.*>\('database-commands'\)/);
      // Even those load the server only when they run (not at every command's start).
      for (const f of fs.readdirSync('cli').filter((x) => x.endsWith('.ts')))
        expect(fs.readFileSync(path.join('cli', f), 'utf8'), f).not.toMatch(/^import [^(]*from '\.\.\/server\//m);
    },
  );
});
