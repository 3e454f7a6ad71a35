/**
 * Idempotency-Key from the outside (split from idempotency.test.ts): the OpenAPI document marks
 * the idempotent operations only; the client resends a lost request under the same generated key
 * and sends a given key as is; `herald --idempotency-key` reruns a command without doing it twice.
 */
import { describe, expect, it } from 'vitest';
import { HeraldClient } from '../../client/herald-client.js';
import { cliEnv, herald } from '../helpers/cli.js';
import { tempDir } from '../helpers/server.js';
import { t, key, draftBody, useIdempotencyServer } from '../helpers/idempotency-server.js';

useIdempotencyServer();

describe('the OpenAPI document', () => {
  it('documents the header, its 409 and 422 and Idempotent-Replayed on the idempotent operations only', async () => {
    const doc = (await t.call('GET', '/openapi.json')).body;
    const marked: string[] = [];
    for (const [p, ops] of Object.entries<Record<string, any>>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(ops)) {
        const header = (op.parameters ?? []).find((x: any) => x.in === 'header' && x.name === 'Idempotency-Key');
        if (!header) {
          expect(op.responses['422'], `${method} ${p}`).toBeUndefined();
          continue;
        }
        marked.push(`${method} ${p}`);
        expect(header.schema).toMatchObject({ minLength: 1, maxLength: 255 });
        expect(op.responses['409'].description).toContain('IDEMPOTENCY_KEY_IN_USE');
        expect(op.responses['422'].description).toContain('IDEMPOTENCY_KEY_REUSED');
        expect(op.responses['200'].headers['Idempotent-Replayed']).toBeDefined();
      }
    }
    expect(marked).toEqual(
      expect.arrayContaining([
        'post /microblog/drafts',
        'post /microblog/publish',
        'post /fedblog/publish',
        'post /microblog/media/upload',
        'post /microblog/schedule',
        'post /templates',
        'post /social-sets',
      ]),
    );
    expect(marked).not.toContain('post /auth/login');
    expect(marked).not.toContain('post /auth/api-keys');
  });
});

describe('the client and the CLI', () => {
  it('a resend after a lost answer carries the same generated key and is applied once', async () => {
    const keys: (string | null)[] = [];
    let lose = true;
    // The first answer is lost on the way back (a proxy answers 429 in its place): the client
    // retries after Retry-After, and Herald must not create the draft a second time.
    const client = new HeraldClient({
      baseUrl: t.base,
      apiKey: key,
      retryRateLimited: 2,
      fetch: async (input, init) => {
        keys.push(new Headers(init?.headers).get('idempotency-key'));
        const res = await fetch(input, init);
        if (lose) {
          lose = false;
          await res.text();
          return new Response('{"success":false,"error":"RATE_LIMITED","message":"lost"}', {
            status: 429,
            headers: { 'retry-after': '0' },
          });
        }
        return res;
      },
    });
    const before = (await t.call('GET', '/microblog/drafts', { key })).body.drafts.length;
    const r = await client.createDraft(draftBody('sent twice, made once'));
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[\x21-\x7e]{1,255}$/);
    expect(keys[1]).toBe(keys[0]);
    const drafts = (await t.call('GET', '/microblog/drafts', { key })).body.drafts;
    expect(drafts.length).toBe(before + 1);
    expect(
      drafts
        .filter((d: { id: string; title: string }) => d.title === 'sent twice, made once')
        .map((d: { id: string }) => d.id),
    ).toEqual([r.draft.id]);
    // Without retries and without a key the client sends none; a given key is sent as is.
    const seen: (string | null)[] = [];
    const plain = new HeraldClient({
      baseUrl: t.base,
      apiKey: key,
      fetch: (i, init) => {
        seen.push(new Headers(init?.headers).get('idempotency-key'));
        return fetch(i, init);
      },
    });
    await plain.createTemplate({ name: 'no key' });
    const a = await plain.createTemplate({ name: 'given key' }, { idempotencyKey: 'client-given-1' });
    const b = await plain.createTemplate({ name: 'given key' }, { idempotencyKey: 'client-given-1' });
    expect(seen).toEqual([null, 'client-given-1', 'client-given-1']);
    expect(b.template.uuid).toBe(a.template.uuid);
  });

  it(
    'herald --idempotency-key reruns a command without doing ' + 'it twice; each run otherwise sends a new key',
    async () => {
      const env = cliEnv(tempDir('herald-cli-idem-'), { HERALD_API_KEY: key, HERALD_BASE_URL: t.base });
      const run = (...args: string[]) => herald(['-o', 'minimal', ...args], { env });
      const one = await run('--idempotency-key', 'cli-run-1', 'template', 'create', '--name', 'From the CLI');
      const two = await run('--idempotency-key', 'cli-run-1', 'template', 'create', '--name', 'From the CLI');
      expect(one.code, one.err).toBe(0);
      expect(two.out).toBe(one.out);
      const other = await run('--idempotency-key', 'cli-run-1', 'template', 'create', '--name', 'Another');
      expect(other.code).toBe(1);
      expect(other.err).toContain('IDEMPOTENCY_KEY_REUSED');
      const bad = await run('--idempotency-key', 'has space', 'template', 'create', '--name', 'Bad');
      expect(bad.code).toBe(2);
      const fresh = [
        await run('template', 'create', '--name', 'Twice'),
        await run('template', 'create', '--name', 'Twice'),
      ];
      expect(fresh[0].out).not.toBe(fresh[1].out);
    },
    60_000,
  );
});
