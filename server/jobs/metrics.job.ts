/**
 * Wakes the metrics collector (domain/after-publish/metrics-collector.ts): a while after start (a
 * closed app catches up then, at the collector's own pace), then every few minutes, and at once
 * when asked (POST /analytics/refresh). Only wakes and calls the collector; the timers never keep
 * the process up and never share a turn with publishing.
 */
import type { Logger } from '../core/logger.js';

export function startMetricsJob(
  collector: { run(): Promise<unknown> },
  log: Logger,
  opts: { firstMs?: number; everyMs?: number } = {},
): { stop(): void; wake(): void } {
  const tick = () => {
    collector.run().catch((err: unknown) => log.warn(`Herald's metrics reads failed: ${(err as Error).message}`));
  };
  const first = setTimeout(tick, opts.firstMs ?? 120_000);
  const every = setInterval(tick, opts.everyMs ?? 10 * 60_000);
  first.unref();
  every.unref();
  return {
    wake: () => setImmediate(tick),
    stop: () => {
      clearTimeout(first);
      clearInterval(every);
    },
  };
}
