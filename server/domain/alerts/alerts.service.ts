/**
 * Alert destinations (GET/POST/DELETE /alerts, POST /alerts/:id/test). The URL and the webhook's
 * HMAC key live in the secret store under `alert:<id>`; the row keeps the URL with its credentials
 * masked, which is all that is ever answered.
 */
import { HeraldError, notFound } from '../../core/errors.js';
import type { AlertRow, AlertsRepo, DeliveryRow } from '../../db/repos/alerts.repo.js';
import type { Deps } from '../deps.js';
import type { EventsService } from '../events/events.service.js';
import { parseAlertUrl, type Destination } from './alert-url.js';
import { alertMessage, type AlertEvent } from './alert-text.js';
import { send, type SendContext } from './senders/index.js';

export const alertSecretName = (id: string) => `alert:${id}`;

export interface AlertView {
  id: string;
  kind: string;
  url: string;
  events: AlertEvent[];
  hasSecret: boolean;
  createdAt: string;
  pending: number;
  lastDelivery: DeliveryView | null;
}

export interface DeliveryView {
  event: string;
  /** sent; retrying (failed, tried again later); failed (given up, or a test that failed). */
  status: 'sent' | 'retrying' | 'failed';
  attempts: number;
  at: string;
  error: string | null;
}

export const deliveryView = (d: DeliveryRow): DeliveryView => ({
  event: d.eventType,
  status: d.status === 'pending' ? 'retrying' : d.status,
  attempts: d.attempts,
  at: new Date(d.doneAt ?? d.nextAt).toISOString(),
  error: d.lastError,
});

interface Stored {
  url: string;
  secret?: string;
}

export class AlertsService {
  constructor(
    private readonly deps: Deps,
    private readonly repo: AlertsRepo,
    private readonly events: EventsService,
  ) {}

  list(userId: string): AlertView[] {
    return this.repo.list(userId).map((r) => this.view(r));
  }

  async create(userId: string, body: { url: string; events: AlertEvent[]; secret?: string }): Promise<AlertView> {
    const { destination, shownUrl } = parseAlertUrl(body.url);
    if (body.secret && destination.kind !== 'generic')
      throw new HeraldError('INVALID_INPUT', 'Only a generic+https:// webhook takes a secret (its signing key).');
    const id = this.deps.ids.uuid();
    const stored: Stored = { url: body.url.trim(), ...(body.secret ? { secret: body.secret } : {}) };
    // The secret first: a row without its secret would be an alert that can never send.
    await this.deps.secrets.set(alertSecretName(id), JSON.stringify(stored));
    const row: AlertRow = {
      id,
      userId,
      kind: destination.kind,
      shownUrl,
      events: JSON.stringify([...new Set(body.events)]),
      hasSecret: body.secret ? 1 : 0,
      // Only events from now on are alerted.
      seenEventId: this.events.latestId(userId),
      createdAt: new Date(this.deps.clock.now()).toISOString(),
    };
    try {
      this.repo.insert(row);
    } catch (err) {
      await this.deps.secrets.delete(alertSecretName(id)).catch(() => false);
      throw err;
    }
    return this.view(row);
  }

  async remove(userId: string, id: string): Promise<void> {
    if (!this.repo.remove(userId, id)) throw notFound('Alert');
    await this.deps.secrets.delete(alertSecretName(id)).catch(() => false);
  }

  /** Sends a test message now and records it as the alert's last delivery. */
  async test(userId: string, id: string): Promise<AlertView> {
    const row = this.repo.get(userId, id);
    if (!row) throw notFound('Alert');
    const now = this.deps.clock.now();
    const msg = alertMessage(`test-${id}-${now}`, 'test', { at: new Date(now).toISOString() });
    const error = await this.deliver(id, msg);
    this.repo.recordTest(id, JSON.stringify(msg), error, this.deps.clock.now());
    return this.view(this.repo.get(userId, id) ?? row);
  }

  /** Sends one message to an alert's destination; answers null when it went, else why not. */
  async deliver(alertId: string, msg: ReturnType<typeof alertMessage>): Promise<string | null> {
    try {
      const stored = await this.stored(alertId);
      await send(stored.destination, msg, this.context(stored.secret));
      return null;
    } catch (err) {
      return (err as Error).message || String(err);
    }
  }

  private async stored(alertId: string): Promise<{ destination: Destination; secret?: string }> {
    const raw = await this.deps.secrets.get(alertSecretName(alertId));
    if (!raw) throw new Error("the alert's URL is not in the secret store (locked, or removed): add the alert again");
    const s = JSON.parse(raw) as Stored;
    return { destination: parseAlertUrl(s.url).destination, secret: s.secret };
  }

  private context(secret: string | undefined): SendContext {
    const apis = this.deps.config.alertApis;
    return { secret, telegramApi: apis.telegram, discordApi: apis.discord, timeoutMs: 10_000 };
  }

  private view(r: AlertRow): AlertView {
    const last = this.repo.last(r.id);
    return {
      id: r.id,
      kind: r.kind,
      url: r.shownUrl,
      events: JSON.parse(r.events) as AlertEvent[],
      hasSecret: r.hasSecret === 1,
      createdAt: r.createdAt,
      pending: this.repo.pending(r.id),
      lastDelivery: last ? deliveryView(last) : null,
    };
  }
}
