/**
 * The desktop app's system notifications, driven by the event stream (the same events GET /events
 * sends the UI) through the events service's in-process subscription: each new event of the
 * owner's goes through text/notification-text.ts's rule with the switches in settings, and what
 * it answers is shown. Nothing here knows Electron: `show` is the app's Notification.
 */
import { notificationFor, type HeraldNotification, type NotificationSwitches } from '../text/notification-text.js';

/** The part of the events service this needs (server/domain/events/events.service.ts). */
export interface EventSource {
  latestId(userId: string): number;
  read(userId: string, afterId: number, limit?: number): { id: number; type: string; data: string }[];
  subscribe(wake: () => void, end: () => void): () => void;
}

export interface NotificationWatch {
  /** The owner's id, once there is one (null before the first-run setup). */
  owner(): string | null;
  /** The switches as they stand now (settings change them at once). */
  switches(): NotificationSwitches;
  show(n: HeraldNotification): void;
  /** Called after each batch of events (the tray's next-post line). */
  changed?(): void;
}

/**
 * Shows a notification for each new event the rule picks; returns the unsubscribe. Events from before the watch began
 * are never shown.
 */
export function watchNotifications(events: EventSource, w: NotificationWatch): () => void {
  // An owner already there: only what happens from now on. One made later (the first-run
  // setup): everything of theirs, all of it new.
  let user = w.owner();
  let cursor = user ? events.latestId(user) : 0;
  const pump = () => {
    user ??= w.owner();
    if (!user) return;
    let seen = false;
    for (;;) {
      const rows = events.read(user, cursor, 200);
      if (rows.length === 0) break;
      seen = true;
      for (const r of rows) {
        cursor = r.id;
        let data: Record<string, unknown>;
        try {
          data = JSON.parse(r.data) as Record<string, unknown>;
        } catch {
          continue;
        }
        const n = notificationFor(r.type, data, w.switches());
        if (n) w.show(n);
      }
    }
    if (seen) w.changed?.();
  };
  return events.subscribe(pump, () => {});
}
