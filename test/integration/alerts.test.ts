/**
 * Alerts end to end: destinations added by URL for each service, a test message reaching each
 * service's simulator on loopback (ntfy, Gotify, Telegram bot API, Discord webhook, Matrix
 * client-server, a generic webhook checking its signature), a real failed publish alerted once,
 * a destination that is down (retried with backoff under the injected clock, shown failing, the
 * publish not held up), bad URLs refused naming what is missing, secrets never answered back.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ownerId } from '../helpers/fixtures.js';
import { connectOAuth } from '../helpers/oauth-connect.js';
import { closedPort, startServer, TestClock, type TestServer } from '../helpers/server.js';
import { startMastodonSimulator, type MastodonSimulator } from '../simulators/mastodon.simulator.js';
import {
  startDiscordSimulator,
  startGotifySimulator,
  startNtfySimulator,
  startTelegramSimulator,
  type PushSimulator,
} from '../simulators/alerts.push.js';
import {
  startMatrixSimulator,
  startWebhookSimulator,
  type MatrixSimulator,
  type WebhookSimulator,
} from '../simulators/alerts.hooks.js';

vi.setConfig({ testTimeout: 60_000 });

const TG = { token: '123456:AAH-secret-bot-token', chats: ['4242', '-1001'] };
const DISCORD = { webhookId: '998877', token: 'discord-secret-webhook-token' };
const MATRIX = {
  user: 'herald',
  password: 'matrix-secret-pw',
  server: 'matrix.test',
  rooms: { '!ops:matrix.test': ['#ops:matrix.test'] },
};
const HMAC = 'hmac-secret-key-123';
const MIN = 60_000;

const clock = new TestClock();
let t: TestServer;
let key: string;
let owner: string;
let masto: MastodonSimulator;
let mastoId: string;
let ntfy: PushSimulator;
let gotify: PushSimulator;
let telegram: PushSimulator;
let discord: PushSimulator;
let matrix: MatrixSimulator;
let hook: WebhookSimulator;

beforeAll(async () => {
  [masto, ntfy, gotify, telegram, discord, matrix, hook] = await Promise.all([
    startMastodonSimulator(),
    startNtfySimulator({ auth: { user: 'me', password: 'ntfy-secret-pw' } }),
    startGotifySimulator({ appToken: 'gotify-secret-app-token' }),
    startTelegramSimulator(TG),
    startDiscordSimulator(DISCORD),
    startMatrixSimulator(MATRIX),
    startWebhookSimulator({ secret: HMAC }),
  ]);
  t = await startServer({
    clock,
    scheduler: false,
    // The timer never fires in this file: the tests pump, so every retry is under the injected clock.
    alerts: { backoffMs: [MIN, 5 * MIN], pollMs: 3_600_000 },
    settings: { HERALD_TELEGRAM_API_URL: telegram.url, HERALD_DISCORD_API_URL: discord.url },
  });
  key = await t.login();
  owner = ownerId(t);
  mastoId = (await connectOAuth(t, key, 'fedblog', { instanceUrl: masto.url })).body.accountUuid;
});

afterAll(async () => {
  await t?.close();
  await Promise.all([masto, ntfy, gotify, telegram, discord, matrix, hook].map((s) => s?.close()));
});

const host = (url: string) => url.replace(/^http:\/\//, '');

async function addAlert(url: string, events: string[] = ['post.failed'], secret?: string) {
  const r = await t.call('POST', '/alerts', { key, body: { url, events, ...(secret ? { secret } : {}) } });
  expect(r.status, r.text).toBe(200);
  return r.body.alert;
}

/** Runs the dispatcher until `done` holds (each round collects new events and sends what is due). */
async function pumpUntil(done: () => boolean, rounds = 50): Promise<void> {
  for (let i = 0; i < rounds && !done(); i++) {
    await t.server.alerts!.pump();
    if (!done()) await new Promise((r) => setTimeout(r, 20));
  }
  expect(done()).toBe(true);
}

async function alertById(id: string) {
  const r = await t.call('GET', '/alerts', { key });
  return r.body.alerts.find((a: any) => a.id === id);
}

describe('bad URLs', () => {
  it.each([
    ['foo://x/y', 'foo'],
    ['no scheme here', 'scheme'],
    ['ntfy://ntfy.example', 'topic'],
    ['gotify://gotify.example', 'app token'],
    ['telegram://123:abc@telegram', 'chats'],
    ['telegram://telegram?chats=1', 'bot token'],
    ['discord://998877', 'webhook token'],
    ['matrix://herald@matrix.example/?rooms=!a:b', 'password'],
    ['matrix://herald:pw@matrix.example/', 'rooms'],
  ])('%s is 400 naming %s', async (url, what) => {
    const r = await t.call('POST', '/alerts', { key, body: { url, events: ['post.failed'] } });
    expect(r.status, r.text).toBe(400);
    expect(r.body.message).toContain(what);
  });

  it('a secret is for the generic webhook only; events are named from the list', async () => {
    let r = await t.call('POST', '/alerts', { key, body: { url: 'ntfy://h/t', events: ['post.failed'], secret: 'x' } });
    expect(r.status).toBe(400);
    r = await t.call('POST', '/alerts', { key, body: { url: 'ntfy://h/t', events: ['post.sent'] } });
    expect(r.status).toBe(400);
    r = await t.call('POST', '/alerts', { key, body: { url: 'ntfy://h/t', events: [] } });
    expect(r.status).toBe(400);
  });
});

describe('each service', () => {
  const cases = () => [
    { name: 'ntfy', url: `ntfy://me:ntfy-secret-pw@${host(ntfy.url)}/herald-alerts`, sim: ntfy, to: 'herald-alerts' },
    { name: 'gotify', url: `gotify://${host(gotify.url)}/gotify-secret-app-token?tls=no`, sim: gotify, to: 'app' },
    {
      name: 'telegram',
      url: `telegram://${TG.token}@telegram?chats=${TG.chats.join(',')}`,
      sim: telegram,
      to: '-1001',
    },
    { name: 'discord', url: `discord://${DISCORD.token}@${DISCORD.webhookId}`, sim: discord, to: DISCORD.webhookId },
    {
      name: 'matrix',
      url: `matrix://${MATRIX.user}:${MATRIX.password}@${host(matrix.url)}/?rooms=%23ops:matrix.test&tls=no`,
      sim: matrix,
      to: '!ops:matrix.test',
    },
    { name: 'generic', url: `generic+${hook.url}/hook`, sim: hook, to: 'hook', secret: HMAC },
  ];

  it('the test button reaches each simulator and shows as the last delivery; no secret is answered back', async () => {
    for (const c of cases()) {
      const before = c.sim.received.length;
      const alert = await addAlert(c.url, ['post.failed', 'credits.low'], c.secret);
      expect(alert.kind).toBe(c.name);
      const r = await t.call('POST', `/alerts/${alert.id}/test`, { key });
      expect(r.status, r.text).toBe(200);
      expect(r.body.alert.lastDelivery, c.name).toMatchObject({ event: 'test', status: 'sent', error: null });
      const got = c.sim.received.slice(before);
      expect(got.length, c.name).toBeGreaterThan(0);
      expect(
        got.map((g) => g.to),
        c.name,
      ).toContain(c.to);
      expect(got.map((g) => `${g.title ?? ''}\n${g.text}`).join(), c.name).toContain('Herald test alert');
    }
    expect(telegram.received.filter((g) => g.text.includes('Herald test alert')).map((g) => g.to)).toEqual(TG.chats);
    expect(hook.received.at(-1)!.signature).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(hook.refused).toBe(0);
    const list = await t.call('GET', '/alerts', { key });
    for (const secret of ['ntfy-secret-pw', 'gotify-secret-app-token', TG.token, DISCORD.token, MATRIX.password, HMAC])
      expect(list.text).not.toContain(secret);
    expect(list.body.alerts.find((a: any) => a.kind === 'generic').hasSecret).toBe(true);
    const names = await t.server.deps.secrets.names();
    for (const a of list.body.alerts) expect(names).toContain(`alert:${a.id}`);
    // Nor in the database file.
    const db = fs.readFileSync(path.join(t.dataDir, 'herald.db')).toString('latin1');
    for (const secret of [TG.token, DISCORD.token, MATRIX.password, HMAC]) expect(db).not.toContain(secret);
  });

  it('a real failed publish is alerted once at each destination asking for post.failed', async () => {
    const before = cases().map((c) => c.sim.received.length);
    const d = await t.call('POST', '/microblog/drafts', {
      key,
      body: { title: 'Alert me', tweets: [{ content: 'This one fails' }] },
    });
    masto.faults.next({ kind: '503' }, { route: 'POST /api/v1/statuses' });
    const r = await t.call('POST', '/microblog/publish', {
      key,
      body: { draftId: d.body.draft.id, accountIds: [mastoId] },
    });
    expect(r.body.results[0].success).toBe(false);
    const grew = () => cases().every((c, i) => c.sim.received.length > before[i]);
    await pumpUntil(grew);
    await t.server.alerts!.pump();
    await t.server.alerts!.pump();
    cases().forEach((c, i) => {
      const got = c.sim.received.slice(before[i]);
      // Telegram sends once per chat.
      expect(got.length, c.name).toBe(c.name === 'telegram' ? TG.chats.length : 1);
      expect(`${got[0].title ?? ''} ${got[0].text}`, c.name).toContain('Mastodon');
    });
    expect(hook.received.at(-1)!.body).toMatchObject({ event: 'post.failed', data: { accountId: mastoId } });
  });

  it('DELETE removes the alert and its secret', async () => {
    const alert = await addAlert(`ntfys://ntfy.example/gone`);
    expect(alert.url).toBe('ntfys://ntfy.example/gone');
    const r = await t.call('DELETE', `/alerts/${alert.id}`, { key });
    expect(r.status, r.text).toBe(200);
    expect(await alertById(alert.id)).toBeUndefined();
    expect(await t.server.deps.secrets.names()).not.toContain(`alert:${alert.id}`);
    expect((await t.call('DELETE', `/alerts/${alert.id}`, { key })).status).toBe(404);
  });
});

describe('a destination that is down', () => {
  it('is retried with backoff, shown failing, and never holds up a publish', async () => {
    const down = await addAlert(`generic+http://127.0.0.1:${await closedPort()}/hook`, ['credits.low']);
    const flaky = await startWebhookSimulator();
    const back = await addAlert(`generic+${flaky.url}/hook`, ['credits.low']);
    // A destination that hangs: the publish below must not wait for it.
    const slow = await startWebhookSimulator();
    slow.faults.next({ kind: 'timeout', ms: 3_000 });
    await addAlert(`generic+${slow.url}/hook`, ['credits.low', 'post.failed']);
    flaky.faults.next({ kind: '503' }, { times: 1 });
    try {
      t.server.services.events.record(owner, 'credits.low', { balance: 12 });
      const pumping = t.server.alerts!.pump();
      const d = await t.call('POST', '/microblog/drafts', {
        key,
        body: { title: 'x', tweets: [{ content: 'Goes out' }] },
      });
      const started = performance.now();
      const r = await t.call('POST', '/microblog/publish', {
        key,
        body: { draftId: d.body.draft.id, accountIds: [mastoId] },
      });
      expect(r.body.results[0].success, r.text).toBe(true);
      expect(performance.now() - started).toBeLessThan(2_000);
      await pumping;
      let a = await alertById(down.id);
      expect(a.lastDelivery).toMatchObject({ event: 'credits.low', status: 'retrying', attempts: 1 });
      expect(a.lastDelivery.error).toMatch(/could not be reached/);
      expect(a.pending).toBe(1);
      expect((await alertById(back.id)).lastDelivery).toMatchObject({
        status: 'retrying',
        error: expect.stringContaining('503'),
      });
      // Not yet due: nothing is tried again.
      await t.server.alerts!.pump();
      expect((await alertById(down.id)).lastDelivery.attempts).toBe(1);
      clock.advance(2 * MIN);
      await t.server.alerts!.pump();
      expect((await alertById(back.id)).lastDelivery).toMatchObject({ status: 'sent', attempts: 2 });
      expect(flaky.received).toHaveLength(1);
      expect((await alertById(down.id)).lastDelivery).toMatchObject({ status: 'retrying', attempts: 2 });
      clock.advance(10 * MIN);
      await t.server.alerts!.pump();
      a = await alertById(down.id);
      expect(a.lastDelivery).toMatchObject({ status: 'failed', attempts: 3 });
      expect(a.pending).toBe(0);
      clock.advance(60 * MIN);
      await t.server.alerts!.pump();
      expect((await alertById(down.id)).lastDelivery.attempts).toBe(3);
    } finally {
      await Promise.all([flaky.close(), slow.close()]);
    }
  });
});

describe('two servers on one data folder', () => {
  it('send each event once', async () => {
    const sink = await startWebhookSimulator();
    const second = await startServer({ dataDir: t.dataDir, clock, scheduler: false, alerts: { pollMs: 3_600_000 } });
    try {
      await addAlert(`generic+${sink.url}/hook`, ['account.expiring']);
      const N = 30;
      for (let i = 0; i < N; i++)
        t.server.services.events.record(owner, 'account.expiring', {
          platform: 'fedblog',
          seq: i,
          expiresAt: '2027-01-01',
        });
      // Both collect and send at once, twice over.
      for (let round = 0; round < 3; round++)
        await Promise.all([t.server.alerts!.pump(), second.server.alerts!.pump()]);
      const seqs = sink.received.map((r) => r.body.data.seq).sort((a: number, b: number) => a - b);
      expect(seqs).toEqual(Array.from({ length: N }, (_, i) => i));
    } finally {
      // Not second.close(): it would remove the shared data folder.
      await second.server.close();
      await sink.close();
    }
  });
});
