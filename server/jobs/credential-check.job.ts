/**
 * Runs the daily credential check (domain/accounts/credential-check.service.ts): a minute after
 * start, then every day. Only wakes and calls the service; the timers never keep the process up.
 */
import type { Logger } from '../core/logger.js';

export const DAY_MS = 24 * 60 * 60_000;

export function startCredentialCheck(
  check: { run(): Promise<unknown> },
  log: Logger,
  opts: { firstMs?: number; everyMs?: number } = {},
): { stop(): void } {
  let running = false;
  const tick = () => {
    if (running) return;
    running = true;
    check
      .run()
      .catch((err: unknown) => log.warn(`Herald's credential check failed: ${(err as Error).message}`))
      .finally(() => {
        running = false;
      });
  };
  const first = setTimeout(tick, opts.firstMs ?? 60_000);
  const every = setInterval(tick, opts.everyMs ?? DAY_MS);
  first.unref();
  every.unref();
  return {
    stop: () => {
      clearTimeout(first);
      clearInterval(every);
    },
  };
}
