/**
 * The one interface every alert service's sender meets: send one message or throw a
 * DeliveryFailed saying why. Each service is one small module (its whole protocol is one or two
 * HTTP calls, smaller than any client library for it).
 */
import type { Destination } from '../alert-url.js';

export interface AlertMessage {
  /** Stable per delivery: services that dedupe by a transaction id (Matrix) get it. */
  key: string;
  event: string;
  title: string;
  text: string;
  at: string;
  data: Record<string, unknown>;
}

export interface SendContext {
  /** The generic webhook's HMAC-SHA256 key. */
  secret?: string;
  /** HERALD_TELEGRAM_API_URL and HERALD_DISCORD_API_URL: the fixed hosts, replaceable for tests and proxies. */
  telegramApi: string;
  discordApi: string;
  timeoutMs: number;
}

export type Sender<D extends Destination = Destination> = (
  dest: D,
  msg: AlertMessage,
  ctx: SendContext,
) => Promise<void>;

export class DeliveryFailed extends Error {}

/** One HTTP request; anything but a 2xx is a DeliveryFailed naming the service and its answer. */
export async function request(
  service: string,
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string },
  ctx: SendContext,
): Promise<unknown> {
  let res: Response;
  try {
    res = await fetch(url, {
      method: init.method ?? 'POST',
      headers: init.headers,
      body: init.body,
      redirect: 'error',
      signal: AbortSignal.timeout(ctx.timeoutMs),
    });
  } catch (err) {
    const e = err as Error & { cause?: { code?: string; message?: string } };
    const why = e.name === 'TimeoutError' ? `no answer in ${ctx.timeoutMs / 1000} s` : (e.cause?.code ?? e.message);
    throw new DeliveryFailed(`${service} could not be reached: ${why}`);
  }
  const text = await res.text().catch(() => '');
  if (!res.ok) throw new DeliveryFailed(`${service} answered ${res.status}${text ? `: ${text.slice(0, 200)}` : ''}`);
  try {
    return text ? (JSON.parse(text) as unknown) : undefined;
  } catch {
    return undefined;
  }
}

export const json = (body: unknown) => ({
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});
