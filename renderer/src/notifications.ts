/**
 * Browser notifications (the Notification API) for the event stream, when Herald runs in a
 * browser; inside the desktop app the main process shows system notifications instead
 * (main/notifications.ts). Which events notify, and the words, come from the one rule in
 * text/notification-text.ts; the switches are read from settings when an event would notify, so
 * a change in Settings applies at once. Permission is asked only from a click (Settings).
 */
import { notificationFor, type NotificationSwitches } from '../../text/notification-text';
import { client } from './api';

const ALL_ON: NotificationSwitches = { published: true, failed: true, missed: true, reconnect: true };

export const notificationsSupported = () => typeof window !== 'undefined' && 'Notification' in window;

/** Asks the browser for permission (call from a click); answers the permission as it stands after. */
export async function askNotificationPermission(): Promise<NotificationPermission | 'unsupported'> {
  if (!notificationsSupported()) return 'unsupported';
  if (Notification.permission !== 'default') return Notification.permission;
  return Notification.requestPermission();
}

/** Follows GET /events and shows a notification for each event the rule picks; returns the stop. */
export function watchBrowserNotifications(): () => void {
  const stop = new AbortController();
  let last: number | undefined;
  void (async () => {
    while (!stop.signal.aborted) {
      try {
        for await (const ev of client.events({ lastEventId: last, signal: stop.signal })) {
          last = ev.id;
          if (!notificationsSupported() || Notification.permission !== 'granted') continue;
          if (!notificationFor(ev.type, ev.data, ALL_ON)) continue;
          const switches = await client.settings().then((r) => r.settings.notifications, () => ALL_ON);
          const n = notificationFor(ev.type, ev.data, switches);
          if (n) new Notification(n.title, { body: n.body, tag: n.tag });
        }
      } catch {
        // The server restarted or the key changed: try again shortly, resuming after the last event seen.
      }
      if (!stop.signal.aborted) await new Promise((r) => setTimeout(r, 3_000));
    }
  })();
  return () => stop.abort();
}
