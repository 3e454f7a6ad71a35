/**
 * Alerts, their deliveries and the upkeep notices. A delivery is created with INSERT OR IGNORE on
 * (alert, event), and claimed by one UPDATE that only succeeds while nobody else holds it: with two
 * servers on one data folder each event still goes out once.
 */
import type { Sqlite } from '../connection.js';
import { lazyStatements } from './statements.js';

export interface AlertRow {
  id: string;
  userId: string;
  kind: string;
  shownUrl: string;
  events: string;
  hasSecret: number;
  seenEventId: number;
  createdAt: string;
}

export interface DeliveryRow {
  id: number;
  alertId: string;
  eventId: number | null;
  eventType: string;
  payload: string;
  status: 'pending' | 'sent' | 'failed';
  attempts: number;
  nextAt: number;
  lastError: string | null;
  doneAt: number | null;
}

const ALERT_COLS =
  'id, user_id AS userId, kind, shown_url AS shownUrl, events, has_secret AS hasSecret, ' +
  'seen_event_id AS seenEventId, created_at AS createdAt';
const DELIVERY_COLS =
  'id, alert_id AS alertId, event_id AS eventId, event_type AS eventType, payload, status, attempts, ' +
  'next_at AS nextAt, last_error AS lastError, done_at AS doneAt';

export class AlertsRepo {
  private readonly s;

  constructor(sqlite: Sqlite) {
    this.s = lazyStatements({
      insert: () =>
        sqlite.prepare(
          'INSERT INTO alerts (id, user_id, kind, shown_url, events, has_secret, seen_event_id, created_at) ' +
            'VALUES (@id, @userId, @kind, @shownUrl, @events, @hasSecret, @seenEventId, @createdAt)',
        ),
      list: () => sqlite.prepare(`SELECT ${ALERT_COLS} FROM alerts WHERE user_id = ? ORDER BY created_at, id`),
      all: () => sqlite.prepare(`SELECT ${ALERT_COLS} FROM alerts ORDER BY id`),
      get: () => sqlite.prepare(`SELECT ${ALERT_COLS} FROM alerts WHERE id = ? AND user_id = ?`),
      byId: () => sqlite.prepare(`SELECT ${ALERT_COLS} FROM alerts WHERE id = ?`),
      remove: () => sqlite.prepare('DELETE FROM alerts WHERE id = ? AND user_id = ?'),
      seen: () => sqlite.prepare('UPDATE alerts SET seen_event_id = MAX(seen_event_id, ?) WHERE id = ?'),
      addDelivery: () =>
        sqlite.prepare(
          'INSERT OR IGNORE INTO alert_deliveries (alert_id, event_id, event_type, payload, status, attempts, ' +
            "next_at, created_at) VALUES (?, ?, ?, ?, 'pending', 0, ?, ?)",
        ),
      due: () =>
        sqlite.prepare(
          `SELECT ${DELIVERY_COLS} FROM alert_deliveries WHERE status = 'pending' AND next_at <= ? ` +
            'AND (claimed_until IS NULL OR claimed_until <= ?) ORDER BY next_at, id LIMIT ?',
        ),
      nextDue: () => sqlite.prepare("SELECT MIN(next_at) FROM alert_deliveries WHERE status = 'pending'").pluck(),
      claim: () =>
        sqlite.prepare(
          "UPDATE alert_deliveries SET claimed_until = ? WHERE id = ? AND status = 'pending' " +
            'AND (claimed_until IS NULL OR claimed_until <= ?)',
        ),
      finish: () =>
        sqlite.prepare(
          'UPDATE alert_deliveries SET status = ?, attempts = attempts + 1, next_at = ?, claimed_until = NULL, ' +
            'last_error = ?, done_at = ? WHERE id = ?',
        ),
      addTest: () =>
        sqlite.prepare(
          'INSERT INTO alert_deliveries (alert_id, event_id, event_type, payload, status, attempts, next_at, ' +
            'last_error, done_at, created_at) VALUES (?, NULL, ?, ?, ?, 1, ?, ?, ?, ?)',
        ),
      last: () =>
        sqlite.prepare(
          `SELECT ${DELIVERY_COLS} FROM alert_deliveries WHERE alert_id = ? AND done_at IS NOT NULL ` +
            'ORDER BY done_at DESC, id DESC LIMIT 1',
        ),
      pendingCount: () =>
        sqlite.prepare("SELECT COUNT(*) FROM alert_deliveries WHERE alert_id = ? AND status = 'pending'").pluck(),
      deliveries: () => sqlite.prepare(`SELECT ${DELIVERY_COLS} FROM alert_deliveries WHERE alert_id = ? ORDER BY id`),
      userIds: () => sqlite.prepare('SELECT id FROM users ORDER BY id').pluck(),
      notice: () => sqlite.prepare('INSERT OR IGNORE INTO alert_notices (user_id, key, created_at) VALUES (?, ?, ?)'),
    });
  }

  insert(row: AlertRow): void {
    this.s.insert.run(row);
  }

  list(userId: string): AlertRow[] {
    return this.s.list.all(userId) as AlertRow[];
  }

  /** Every user's alerts (the dispatcher turns each one's events into deliveries). */
  all(): AlertRow[] {
    return this.s.all.all() as AlertRow[];
  }

  get(userId: string, id: string): AlertRow | undefined {
    return this.s.get.get(id, userId) as AlertRow | undefined;
  }

  byId(id: string): AlertRow | undefined {
    return this.s.byId.get(id) as AlertRow | undefined;
  }

  remove(userId: string, id: string): boolean {
    return this.s.remove.run(id, userId).changes > 0;
  }

  markSeen(alertId: string, eventId: number): void {
    this.s.seen.run(eventId, alertId);
  }

  /** False when this alert already has a delivery of this event. */
  addDelivery(alertId: string, eventId: number, type: string, payload: string, now: number): boolean {
    return this.s.addDelivery.run(alertId, eventId, type, payload, now, now).changes > 0;
  }

  due(now: number, limit: number): DeliveryRow[] {
    return this.s.due.all(now, now, limit) as DeliveryRow[];
  }

  /** When the next pending delivery is due (null when none is). */
  nextDue(): number | null {
    return (this.s.nextDue.get() as number | null) ?? null;
  }

  /** True when this process now holds the delivery until `until`. */
  claim(id: number, now: number, until: number): boolean {
    return this.s.claim.run(until, id, now).changes > 0;
  }

  finish(id: number, status: DeliveryRow['status'], nextAt: number, error: string | null, now: number): void {
    this.s.finish.run(status, nextAt, error, now, id);
  }

  recordTest(alertId: string, payload: string, error: string | null, now: number): void {
    this.s.addTest.run(alertId, 'test', payload, error ? 'failed' : 'sent', now, error, now, now);
  }

  last(alertId: string): DeliveryRow | undefined {
    return this.s.last.get(alertId) as DeliveryRow | undefined;
  }

  pending(alertId: string): number {
    return this.s.pendingCount.get(alertId) as number;
  }

  deliveries(alertId: string): DeliveryRow[] {
    return this.s.deliveries.all(alertId) as DeliveryRow[];
  }

  /** Every user (the upkeep watches look at each). */
  userIds(): string[] {
    return this.s.userIds.all() as string[];
  }

  /** True the first time this user's notice `key` is told. */
  noticeOnce(userId: string, key: string, now: number): boolean {
    return this.s.notice.run(userId, key, now).changes > 0;
  }
}
