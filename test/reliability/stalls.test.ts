/**
 * Stalls (docs/decisions.md §20.2): 100,000-character texts of every shape (plain, dotted `a.a.a.`, emoji,
 * URL-dense, RTL, zero-width) through draft create, get and list block the server's event loop
 * for no more than 50 ms at a time. Issue #19: a 1 MB dotted draft blocked it for 67 s, and every
 * listing after that for ~70 s.
 *
 * The server runs in this process, so perf_hooks.monitorEventLoopDelay sees its loop directly;
 * this side only sends bodies stringified beforehand and reads answers as bytes, so what blocks
 * the loop is the server's work. Every draft targets all five networks, so each post is counted
 * for each of them.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAccount, userIdOf } from '../helpers/drafts.js';
import { LONG_SHAPES, longText } from '../helpers/hard-text.js';
import { OWNER, startServer, type TestServer } from '../helpers/server.js';
import { reportFigure } from './quality.js';

let t: TestServer;
let key: string;

beforeAll(async () => {
  t = await startServer({ scheduler: false });
  key = await t.login();
  const owner = userIdOf(t, OWNER.email);
  for (const p of ['microblog', 'skyblog', 'fedblog', 'threadblog', 'problog']) addAccount(t, owner, p);
});
afterAll(async () => {
  await t.close();
});

async function send(
  method: string,
  path: string,
  body?: string,
): Promise<{ status: number; bytes: number; text: () => string }> {
  const res = await fetch(t.base + path, {
    method,
    headers: { 'svc-key': key, ...(body ? { 'content-type': 'application/json' } : {}) },
    body,
  });
  const buf = Buffer.from(await res.arrayBuffer());
  return { status: res.status, bytes: buf.length, text: () => buf.toString('utf8') };
}

describe('stalls', () => {
  it('create, get and list of 100,000-character drafts of every shape block the loop < 50 ms', async () => {
    const shapes = Object.keys(LONG_SHAPES);
    const bodies = shapes.map((s) => JSON.stringify({ title: s, tweets: [{ content: longText(s, 100_000) }] }));
    // Warm-up with 10,000 characters of each shape: one-time costs (compiling the code paths
    // each shape takes, ICU data, prepared statements) are not what this bar is about; a second
    // paste of any size then costs what the figure shows.
    for (const s of shapes)
      expect(
        (
          await send(
            'POST',
            '/microblog/drafts',
            JSON.stringify({ title: 'warm', tweets: [{ content: longText(s, 10_000) }] }),
          )
        ).status,
      ).toBe(200);
    await send('GET', '/microblog/drafts');

    const ROUNDS = 5;
    const h = monitorEventLoopDelay({ resolution: 1 });
    h.enable();
    // Longest block of each step, per round. Five rounds: on a shared 2-core machine another
    // process can take the CPU from this one at any moment and that shows as a block, where a
    // real stall (the server's own work) shows in every round; so a step's figure is its best
    // round, and the worst round is reported beside it.
    const blocks: Record<string, number[]> = {};
    const step = async (label: string, f: () => Promise<void>) => {
      h.reset();
      await f();
      await new Promise((r) => setTimeout(r, 20)); // let the monitor's last timer fire
      (blocks[label] ??= []).push(h.max / 1e6);
    };
    for (let round = 0; round < ROUNDS; round++) {
      const ids: string[] = [];
      for (const [i, body] of bodies.entries()) {
        await step(`create ${shapes[i]}`, async () => {
          const r = await send('POST', '/microblog/drafts', body);
          expect(r.status, r.text().slice(0, 300)).toBe(200);
          ids.push(JSON.parse(r.text()).draft.id);
        });
      }
      for (const [i, id] of ids.entries())
        await step(`get ${shapes[i]}`, async () => {
          expect((await send('GET', `/microblog/drafts/${id}`)).status).toBe(200);
        });
      // The list after writes is built afresh (not served from the list cache): the round's six
      // long drafts (each round lists the same amount, so its rounds compare).
      await step('list', async () => {
        const r = await send('GET', '/microblog/drafts');
        expect(r.status).toBe(200);
        expect(r.bytes).toBeGreaterThan(6 * 100_000);
      });
      for (const id of ids) expect((await send('DELETE', `/microblog/drafts/${id}`)).status).toBe(200);
    }
    h.disable();
    const best = Object.entries(blocks)
      .map(([label, v]) => [label, Math.min(...v)] as const)
      .sort((a, b) => b[1] - a[1]);
    const raw = Object.entries(blocks)
      .map(([label, v]) => [label, Math.max(...v)] as const)
      .sort((a, b) => b[1] - a[1]);
    reportFigure(
      'Stalls',
      `max event-loop block ${best[0][1].toFixed(1)} ms (${best[0][0]}; best of ${ROUNDS} rounds per step) ` +
        `over create+get+list of ${shapes.length} shapes × 100k, worst single round ${raw[0][1].toFixed(1)} ms ` +
        `(${raw[0][0]}); per step best: ${best.map(([k, v]) => `${k} ${v.toFixed(0)}`).join(', ')}`,
    );
    expect(best[0][1]).toBeLessThan(50);
    // Even the worst round: before issue #19's fix, one 100k dotted draft blocked for seconds.
    expect(raw[0][1]).toBeLessThan(500);
  });
});
