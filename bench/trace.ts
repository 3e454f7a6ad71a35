/**
 * Where a page's main thread spends its time during `fn`, by trace event (style, layout, paint,
 * script...): a Chromium trace summed as self time per event name on the renderer's main thread.
 * The CPU profile sees only script; most of a keystroke's cost can be the browser's own work.
 */
import type { UiApp } from '../test/helpers/ui-app.js';

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; beginData?: Record<string, unknown>; endData?: Record<string, unknown> };
}

export async function traceSelfTimes<T>(
  browser: UiApp['browser'],
  page: UiApp['page'],
  fn: () => Promise<T>,
  per = 1,
): Promise<T> {
  await browser.startTracing(page, {
    categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline'],
  });
  const out = await fn();
  const { traceEvents } = JSON.parse((await browser.stopTracing()).toString('utf8')) as { traceEvents: TraceEvent[] };
  const main = traceEvents.find((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  if (!main) return out;
  const events = traceEvents
    .filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X' && e.dur !== undefined)
    .sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
  const self = new Map<string, number>();
  const stack: { e: TraceEvent; end: number; child: number }[] = [];
  const close = (until: number) => {
    while (stack.length && stack[stack.length - 1].end <= until) {
      const top = stack.pop()!;
      self.set(top.e.name, (self.get(top.e.name) ?? 0) + (top.e.dur! - top.child));
      if (stack.length) stack[stack.length - 1].child += top.e.dur!;
    }
  };
  for (const e of events) {
    close(e.ts);
    stack.push({ e, end: e.ts + e.dur!, child: 0 });
  }
  close(Number.POSITIVE_INFINITY);
  if (process.env.BENCH_TRACE_LAYOUT) {
    const layouts = events.filter((e) => e.name === 'Layout').slice(-6);
    for (const e of layouts)
      console.log(
        `Layout ${(e.dur! / 1000).toFixed(2)} ms`,
        JSON.stringify(e.args?.beginData),
        JSON.stringify(e.args?.endData),
      );
    const styles = events.filter((e) => e.name === 'UpdateLayoutTree').slice(-6);
    for (const e of styles) console.log(`Style ${(e.dur! / 1000).toFixed(2)} ms`, JSON.stringify(e.args));
  }
  console.log(
    [...self]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 20)
      .map(([k, v]) => `${(v / 1000 / per).toFixed(2)} ms/key ${k}`)
      .join('\n'),
  );
  return out;
}
