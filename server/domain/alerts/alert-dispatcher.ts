/**
 * Turns the event stream into alert deliveries and sends them, apart from publishing: it wakes
 * after events were appended (the same stream GET /events reads) and on its own timer (events of
 * another Herald on the same data folder, and retries). Each (alert, event) pair is one row,
 * created with INSERT OR IGNORE and claimed by one UPDATE, so two servers on one folder send each
 * event once. A failed send is tried again with backoff; after the last try the delivery is
 * `failed` and the alert shows it.
 */
import type { AlertsRepo, DeliveryRow } from '../../db/repos/alerts.repo.js';
import type { Deps } from '../deps.js';
import type { EventsService } from '../events/events.service.js';
import { ALERT_EVENTS, alertMessage } from './alert-text.js';
import type { AlertsService } from './alerts.service.js';

export interface DispatcherOptions {
  /** Waits before each retry, ms; one more try than entries is the end. */
  backoffMs?: number[];
  /** How long a claim lasts: a server that dies mid-send leaves the row to another after this. */
  claimMs?: number;
  /** How often the timer looks for other processes' events and due retries, ms (real time). */
  pollMs?: number;
}

const BACKOFF_MS = [30_000, 2 * 60_000, 10 * 60_000, 30 * 60_000, 2 * 3_600_000, 6 * 3_600_000];
const ALERTED = new Set<string>(ALERT_EVENTS);
const BATCH = 200;

export class AlertDispatcher {
  private readonly backoff: number[];
  private readonly claimMs: number;
  private readonly pollMs: number;
  private running: Promise<void> | undefined;
  private again = false;
  private timer: NodeJS.Timeout | undefined;
  private kick: NodeJS.Timeout | undefined;
  private unsubscribe: (() => void) | undefined;

  constructor(
    private readonly deps: Deps,
    private readonly repo: AlertsRepo,
    private readonly events: EventsService,
    private readonly alerts: AlertsService,
    opts: DispatcherOptions = {},
  ) {
    this.backoff = opts.backoffMs ?? BACKOFF_MS;
    this.claimMs = opts.claimMs ?? 60_000;
    this.pollMs = opts.pollMs ?? 5_000;
  }

  start(): void {
    this.unsubscribe = this.events.onAppend(() => this.soon());
    this.timer = setInterval(() => void this.pump(), this.pollMs);
    this.timer.unref();
    void this.pump();
  }

  /** A moment after appends, so a burst of them (and the streams they wake) go first and cost one round. */
  private soon(): void {
    if (this.kick) return;
    this.kick = setTimeout(() => {
      this.kick = undefined;
      void this.pump();
    }, 50);
    this.kick.unref();
  }

  /** Stops waking; a send under way finishes. */
  async stop(): Promise<void> {
    this.unsubscribe?.();
    clearTimeout(this.kick);
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** Collects new events and sends what is due; resolves when this round is done (tests await it). */
  pump(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.round().finally(() => {
      this.running = undefined;
      if (this.again) {
        this.again = false;
        void this.pump();
      }
    });
    return this.running;
  }

  private async round(): Promise<void> {
    try {
      this.collect();
      for (;;) {
        const due = this.repo.due(this.deps.clock.now(), BATCH);
        let sent = 0;
        for (const d of due) if (await this.attempt(d)) sent++;
        if (due.length < BATCH || sent === 0) break;
      }
    } catch (err) {
      // A busy database or a secret store that is locked: the next wake tries again.
      this.deps.log.warn(`Herald could not send alerts: ${(err as Error).message}`);
    }
  }

  /** Each alert's new events of the types it asked for become deliveries. */
  collect(): void {
    for (const alert of this.repo.all()) {
      const wanted = new Set(JSON.parse(alert.events) as string[]);
      let seen = alert.seenEventId;
      for (;;) {
        const rows = this.events.read(alert.userId, seen, BATCH);
        if (rows.length === 0) break;
        const now = this.deps.clock.now();
        for (const e of rows) {
          if (!ALERTED.has(e.type) || !wanted.has(e.type)) continue;
          const data = JSON.parse(e.data) as Record<string, unknown>;
          const msg = alertMessage(`herald-${alert.id}-${e.id}`, e.type, data);
          this.repo.addDelivery(alert.id, e.id, e.type, JSON.stringify(msg), now);
        }
        seen = rows.at(-1)!.id;
        this.repo.markSeen(alert.id, seen);
        if (rows.length < BATCH) break;
      }
    }
  }

  /** Sends one due delivery if this process wins its claim; true when it did. */
  private async attempt(d: DeliveryRow): Promise<boolean> {
    const now = this.deps.clock.now();
    if (!this.repo.claim(d.id, now, now + this.claimMs)) return false;
    const error = await this.alerts.deliver(d.alertId, JSON.parse(d.payload) as ReturnType<typeof alertMessage>);
    const end = this.deps.clock.now();
    if (!error) {
      this.repo.finish(d.id, 'sent', end, null, end);
    } else {
      const wait = this.backoff[d.attempts];
      if (wait === undefined) this.repo.finish(d.id, 'failed', end, error, end);
      else this.repo.finish(d.id, 'pending', end + Math.round(wait * (1 + 0.2 * this.deps.random())), error, end);
    }
    return true;
  }
}
