/**
 * Event stream fan-out: 10,000 events to 10 GET /events clients; the figure is the delivery
 * latency, from the event's write (in the transaction that records it) to the client having
 * parsed it. Herald runs in this process (the events are recorded through its EventsService, as
 * the publishing services do, 10 per transaction every 5 ms: 2,000 events a second); the ten
 * clients read the stream over loopback in a worker thread, so their parsing does not share
 * Herald's event loop. Goal (issue #24): p99 ≤ 50 ms.
 */
import { Worker } from 'node:worker_threads';
import { loadConfig } from '../server/core/config.js';
import { createServer } from '../server/server.js';
import { finishGoals, fmt, goal, loadNote, percentile, printTable, tempDir } from './lib.js';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 10_000);
const CLIENTS = 10;
const PER_TICK = 10;
const TICK_MS = 5;
const owner = { email: 'bench@example.test', password: 'bench password 123' };

const config = loadConfig(
  {},
  {
    HERALD_DATA_DIR: tempDir('herald-bench-events-'),
    HERALD_PORT: '0',
    HERALD_LOG_LEVEL: 'silent',
    HERALD_SECRET_STORE: 'file',
    HERALD_OWNER_EMAIL: owner.email,
    HERALD_OWNER_PASSWORD: owner.password,
    HERALD_PASSWORD_COST: '14',
    HERALD_DEFAULT_TIER: 'enterprise',
    HERALD_ENTERPRISE_LIMIT: '100000000',
  },
);
const server = await createServer({ config, announce: false, scheduler: false, uiDir: '' });
try {
  const login = await fetch(`${server.apiUrl}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(owner),
  });
  const key = ((await login.json()) as { apiKey: { key: string } }).apiKey.key;
  const userId = server.sqlite.prepare('SELECT id FROM users WHERE email = ?').pluck().get(owner.email) as string;
  const events = server.services.events;

  // Each client: reads the stream, and for each event the time from its `sent` mark to now.
  const worker = new Worker(
    `
    const { parentPort, workerData } = require('node:worker_threads');
    const { url, key, clients, events } = workerData;
    const now = () => performance.timeOrigin + performance.now();
    const run = async () => {
      const res = await fetch(url, { headers: { 'svc-key': key } });
      const reader = res.body.getReader();
      const decoder = new TextDecoder();
      let buffer = '', got = 0;
      const lat = new Float64Array(events);
      parentPort.postMessage({ open: true });
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let end;
        while ((end = buffer.indexOf('\\n\\n')) !== -1) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const line = block.split('\\n').find((l) => l.startsWith('data: '));
          if (!line) continue;
          lat[got++] = now() - JSON.parse(line.slice(6)).sent;
        }
        if (got >= events) { reader.cancel(); break; }
      }
      return Array.from(lat.subarray(0, got));
    };
    Promise.all(Array.from({ length: clients }, run)).then((all) => parentPort.postMessage({ latencies: all }));
  `,
    { eval: true, workerData: { url: `${server.apiUrl}/events`, key, clients: CLIENTS, events: EVENTS } },
  );

  let opened = 0;
  const done = new Promise<number[][]>((resolve, reject) => {
    worker.on('message', (m: { open?: boolean; latencies?: number[][] }) => {
      if (m.open) opened += 1;
      if (m.latencies) resolve(m.latencies);
    });
    worker.on('error', reject);
  });
  while (opened < CLIENTS || events.streams < CLIENTS) await new Promise((r) => setTimeout(r, 10));

  const now = () => performance.timeOrigin + performance.now();
  const started = now();
  for (let sent = 0; sent < EVENTS;) {
    server.sqlite.transaction(() => {
      for (let i = 0; i < PER_TICK && sent < EVENTS; i++, sent++)
        events.record(userId, 'credits.changed', { balance: sent, sent: now() });
    })();
    await new Promise((r) => setTimeout(r, TICK_MS));
  }
  const latencies = await done;
  const wall = (now() - started) / 1000;
  await worker.terminate();
  const all = latencies.flat();
  const complete = latencies.every((l) => l.length === EVENTS);
  printTable(
    `Event stream: ${EVENTS.toLocaleString('en')} events to ${CLIENTS} clients (${PER_TICK} per transaction ` +
      `every ${TICK_MS} ms)`,
    [
      ['figure', 'value'],
      [
        'delivered',
        `${all.length.toLocaleString('en')} of ${(EVENTS * CLIENTS).toLocaleString('en')}` +
          `${complete ? '' : ' (INCOMPLETE)'}`,
      ],
      ['p50 delivery', `${fmt(percentile(all, 50))} ms`],
      [
        'p99 delivery',
        `${fmt(percentile(all, 99))} ms, goal ≤ 50 ms` +
          `${goal(`p99 delivery ${fmt(percentile(all, 99))} ms (goal ≤ 50 ms)`, percentile(all, 99) <= 50)}`,
      ],
      ['max delivery', `${fmt(Math.max(...all))} ms`],
      ['wall time', `${fmt(wall)} s`],
    ],
  );
  console.log(loadNote());
  goal(`${all.length} of ${EVENTS * CLIENTS} events delivered (goal: all)`, complete);
  finishGoals();
} finally {
  await server.close();
}
