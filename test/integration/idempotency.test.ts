/**
 * Idempotency-Key on the POSTs that create or publish (docs/decisions.md §10, issue #24 item 1), against a
 * real Herald (real SQLite file, real HTTP on loopback) and the Mastodon simulator:
 * - the same request under the same key gets the first answer again, byte for byte, with
 *   `Idempotent-Replayed: true`, and the handler ran once (one draft; one status on the network);
 * - also after a restart on the same data folder, and through Express (uploads) as through the dispatcher;
 * - another request under the key: 422; the same one while the first runs: 409;
 * - keys are per user; rows expire after 24 h (injected clock); a 5xx is not kept;
 * - a key whose first request died with its process (SIGKILL) is free again for the retry.
 * The OpenAPI document, the client and the CLI: idempotency-clients.test.ts (the shared set-up:
 * test/helpers/idempotency-server.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startChild } from '../helpers/child-server.js';
import { connectOAuth } from '../helpers/oauth-connect.js';
import { pngBytes } from '../helpers/png.js';
import { addUser, jsonCaller, rawRequest, startServer, tempDir } from '../helpers/server.js';
import { masto, t, key, accountId, clock, cleanup, statusPosts, draftBody } from '../helpers/idempotency-server.js';
import { idem, useIdempotencyServer } from '../helpers/idempotency-server.js';

useIdempotencyServer();

describe('Idempotency-Key', () => {
  it('replays the first answer byte for byte with Idempotent-Replayed: true; the draft is created once', async () => {
    const before = (await t.call('GET', '/microblog/drafts', { key })).body.drafts.length;
    const first = await t.call('POST', '/microblog/drafts', {
      key,
      body: draftBody('once only'),
      headers: idem('draft-1'),
    });
    expect(first.status).toBe(200);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await t.call('POST', '/microblog/drafts', {
      key,
      body: draftBody('once only'),
      headers: idem('draft-1'),
    });
    expect(again.status).toBe(first.status);
    expect(again.text).toBe(first.text);
    expect(again.headers.get('content-type')).toBe(first.headers.get('content-type'));
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const drafts = (await t.call('GET', '/microblog/drafts', { key })).body.drafts;
    expect(drafts.length).toBe(before + 1);
    // Without a key the same request runs again: the key, not the body, makes it idempotent.
    const plain = await t.call('POST', '/microblog/drafts', { key, body: draftBody('once only') });
    expect(plain.body.draft.id).not.toBe(first.body.draft.id);
  });

  it('the same key for another body or path: 422 IDEMPOTENCY_KEY_REUSED, and nothing is created', async () => {
    await t.call('POST', '/microblog/drafts', { key, body: draftBody('first body'), headers: idem('reuse-1') });
    const count = (await t.call('GET', '/microblog/drafts', { key })).body.drafts.length;
    const other = await t.call('POST', '/microblog/drafts', {
      key,
      body: draftBody('second body'),
      headers: idem('reuse-1'),
    });
    expect(other.status).toBe(422);
    expect(other.body).toMatchObject({ success: false, error: 'IDEMPOTENCY_KEY_REUSED' });
    const otherPath = await t.call('POST', '/templates', {
      key,
      body: { name: 'first body' },
      headers: idem('reuse-1'),
    });
    expect(otherPath.status).toBe(422);
    expect((await t.call('GET', '/microblog/drafts', { key })).body.drafts.length).toBe(count);
  });

  it('a bad header is 400 INVALID_INPUT naming it, before anything runs', async () => {
    const count = (await t.call('GET', '/microblog/drafts', { key })).body.drafts.length;
    for (const value of ['a'.repeat(256), 'has space', 'tab\there', '']) {
      const r = await rawRequest(t.server.port, {
        method: 'POST',
        target: '/api/v1/microblog/drafts',
        body: JSON.stringify(draftBody('bad key')),
        headers: {
          host: `127.0.0.1:${t.server.port}`,
          'svc-key': key,
          'content-type': 'application/json',
          'idempotency-key': value,
        },
      });
      expect(r.status, JSON.stringify(value)).toBe(400);
      const body = JSON.parse(r.text);
      expect(body.error).toBe('INVALID_INPUT');
      expect(body.details[0].path).toBe('headers.idempotency-key');
    }
    // Non-ASCII (sent as raw bytes) and the header twice are refused too.
    const latin = await rawRequest(t.server.port, {
      method: 'POST',
      target: '/api/v1/microblog/drafts',
      body: JSON.stringify(draftBody('bad key')),
      headers: {
        host: `127.0.0.1:${t.server.port}`,
        'svc-key': key,
        'content-type': 'application/json',
        'idempotency-key': Buffer.from('clé', 'utf8').toString('latin1'),
      },
    });
    expect(latin.status).toBe(400);
    const twice = await rawRequest(t.server.port, {
      method: 'POST',
      target: '/api/v1/microblog/drafts',
      body: JSON.stringify(draftBody('bad key')),
      headers: {
        host: `127.0.0.1:${t.server.port}`,
        'svc-key': key,
        'content-type': 'application/json',
        'idempotency-key': ['k1', 'k2'],
      },
    });
    expect(twice.status).toBe(400);
    expect((await t.call('GET', '/microblog/drafts', { key })).body.drafts.length).toBe(count);
    // 255 visible characters are fine.
    const max = await t.call('POST', '/microblog/drafts', {
      key,
      body: draftBody('max key'),
      headers: idem('~'.repeat(255)),
    });
    expect(max.status).toBe(200);
  });

  it('keys are per user: another user with the same key and body gets their own draft', async () => {
    const other = await addUser(t, 'second@example.test');
    await t.call('POST', '/social-sets', { key: other, body: { name: 'Main' } });
    const mine = await t.call('POST', '/microblog/drafts', {
      key,
      body: draftBody('shared key'),
      headers: idem('shared-key'),
    });
    const theirs = await t.call('POST', '/microblog/drafts', {
      key: other,
      body: draftBody('shared key'),
      headers: idem('shared-key'),
    });
    expect(mine.status).toBe(200);
    expect(theirs.status).toBe(200);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect(theirs.body.draft.id).not.toBe(mine.body.draft.id);
    expect((await t.call('GET', `/microblog/drafts/${mine.body.draft.id}`, { key: other })).status).toBe(404);
  });

  it('a publish replay sends nothing more to the network; the same key while it runs is 409', async () => {
    const body = { accountUuid: accountId, type: 'single', text: 'published exactly once' };
    const sent = statusPosts();
    masto.faults.latencyMs = 400;
    try {
      const [a, b] = await Promise.all([
        t.call('POST', '/fedblog/publish', { key, body, headers: idem('publish-1') }),
        new Promise((r) => setTimeout(r, 100)).then(() =>
          t.call('POST', '/fedblog/publish', { key, body, headers: idem('publish-1') }),
        ),
      ]);
      expect(a.status).toBe(200);
      expect(b.status).toBe(409);
      expect(b.body).toMatchObject({ success: false, error: 'IDEMPOTENCY_KEY_IN_USE' });
      const again = await t.call('POST', '/fedblog/publish', { key, body, headers: idem('publish-1') });
      expect(again.status).toBe(200);
      expect(again.text).toBe(a.text);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
    } finally {
      masto.faults.latencyMs = 0;
    }
    expect(statusPosts()).toBe(sent + 1);
    expect(masto.state.statuses.filter((s) => s.text.includes('published exactly once')).length).toBe(1);
  });

  it('a 5xx is not kept: the retry under the same key really runs', async () => {
    const body = { accountUuid: accountId, type: 'single', text: 'after a network failure' };
    masto.faults.next({ kind: '500' }, { route: 'POST /api/v1/statuses', times: 10 });
    const failed = await t.call('POST', '/fedblog/publish', { key, body, headers: idem('publish-5xx') });
    expect(failed.status).toBeGreaterThanOrEqual(500);
    masto.faults.clear();
    const sent = statusPosts();
    const retry = await t.call('POST', '/fedblog/publish', { key, body, headers: idem('publish-5xx') });
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    expect(statusPosts()).toBe(sent + 1);
  });

  it('a row lives 24 hours: after that the key is free for any request (injected clock)', async () => {
    const first = await t.call('POST', '/microblog/drafts', {
      key,
      body: draftBody('day one'),
      headers: idem('day-key'),
    });
    clock.advance(24 * 3600_000 - 1000);
    const within = await t.call('POST', '/microblog/drafts', {
      key,
      body: draftBody('day one'),
      headers: idem('day-key'),
    });
    expect(within.headers.get('idempotent-replayed')).toBe('true');
    expect(within.text).toBe(first.text);
    clock.advance(2000);
    const after = await t.call('POST', '/microblog/drafts', {
      key,
      body: draftBody('day two'),
      headers: idem('day-key'),
    });
    expect(after.status).toBe(200);
    expect(after.headers.get('idempotent-replayed')).toBeNull();
    expect(after.body.draft.id).not.toBe(first.body.draft.id);
  });

  it('an upload (through Express, not the dispatcher) is replayed and its file stored once', async () => {
    const dir = path.join(t.dataDir, 'media');
    const media = () => (fs.existsSync(dir) ? fs.readdirSync(dir).length : 0);
    const upload = (k: string, bytes: Buffer) => {
      const form = new FormData();
      form.append('files', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), 'a.png');
      return fetch(`${t.base}/microblog/media/upload`, {
        method: 'POST',
        headers: { 'svc-key': key, 'Idempotency-Key': k },
        body: form,
      });
    };
    const before = media();
    const a = await upload('upload-1', pngBytes(8, 8, [200, 10, 10]));
    const aText = await a.text();
    expect(a.status).toBe(200);
    const b = await upload('upload-1', pngBytes(8, 8, [200, 10, 10]));
    expect(b.status).toBe(200);
    expect(b.headers.get('idempotent-replayed')).toBe('true');
    expect(await b.text()).toBe(aText);
    expect(media()).toBe(before + 1);
    const other = await upload('upload-1', pngBytes(9, 9, [10, 200, 10]));
    expect(other.status).toBe(422);
    expect(media()).toBe(before + 1);
  });
});

describe('across restarts', () => {
  it('replays after the server restarts on the same data folder', async () => {
    const dataDir = tempDir();
    cleanup.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    const one = await startServer({ dataDir });
    const k1 = await one.login();
    await one.call('POST', '/social-sets', { key: k1, body: { name: 'Main' } });
    const first = await one.call('POST', '/microblog/drafts', {
      key: k1,
      body: draftBody('before restart'),
      headers: idem('restart-1'),
    });
    expect(first.status).toBe(200);
    await one.server.close();
    const two = await startServer({ dataDir });
    cleanup.push(() => two.server.close());
    const k2 = await two.login();
    const again = await two.call('POST', '/microblog/drafts', {
      key: k2,
      body: draftBody('before restart'),
      headers: idem('restart-1'),
    });
    expect(again.status).toBe(200);
    expect(again.text).toBe(first.text);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect((await two.call('GET', '/microblog/drafts', { key: k2 })).body.drafts.length).toBe(1);
  });

  it('a key whose first request died with its process (SIGKILL) is free again', async () => {
    const dataDir = tempDir();
    cleanup.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    const child = await startChild({ dataDir });
    cleanup.push(async () => {
      if (child.alive()) await child.kill();
    });
    const ck = await child.login();
    const conn = await connectOAuth({ call: child.call }, ck, 'fedblog', { instanceUrl: masto.url });
    const acct = conn.body.accountUuid as string;
    const body = { accountUuid: acct, type: 'single', text: 'interrupted by a crash' };
    masto.faults.latencyMs = 5000;
    const inFlight = child
      .call('POST', '/fedblog/publish', { key: ck, body, headers: idem('crash-1') })
      .catch(() => undefined);
    try {
      // The key is held while the first request waits on the network...
      await new Promise((r) => setTimeout(r, 500));
      const busy = await child.call('POST', '/fedblog/publish', { key: ck, body, headers: idem('crash-1') });
      expect(busy.status).toBe(409);
      await child.kill('SIGKILL');
      await inFlight;
    } finally {
      masto.faults.latencyMs = 0;
    }
    // ...and not after its process is gone.
    const next = await startServer({ dataDir });
    cleanup.push(() => next.server.close());
    const nk = await next.login();
    const retry = await jsonCaller(next.base)('POST', '/fedblog/publish', { key: nk, body, headers: idem('crash-1') });
    expect(retry.status).not.toBe(409);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
  }, 60_000);
});
