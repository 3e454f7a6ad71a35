/**
 * Browser notifications (the Notification API) for the event stream, when Herald runs in a
 * browser; inside the desktop app the main process shows system notifications instead
 * (main/notifications.ts). Which events notify, and the words, come from the one rule in
 * text/notification-text.ts; the switches are read from settings when an event would notify, so
 * a change in Settings applies at once. Permission is asked only from a click (Settings).
 */
import { notificationFor, type NotificationSwitches } from '../../text/notification-text';
import { client } from './api';

/** Told when the permission is granted from Settings, so the stream opens then. */
const GRANTED = 'herald:notifications-granted';

const ALL_ON: NotificationSwitches = { published: true, failed: true, missed: true, reconnect: true };

export const notificationsSupported = () => typeof window !== 'undefined' && 'Notification' in window;

/** Asks the browser for permission (call from a click); answers the permission as it stands after. */
export async function askNotificationPermission(): Promise<NotificationPermission | 'unsupported'> {
  if (!notificationsSupported()) return 'unsupported';
  const answer =
    Notification.permission === 'default' ? await Notification.requestPermission() : Notification.permission;
  if (answer === 'granted') window.dispatchEvent(new Event(GRANTED));
  return answer;
}

/**
 * Follows GET /events and shows a notification for each event the rule picks; returns the stop.
 * The stream is opened only once the page may show notifications (no open connection otherwise).
 */
export function watchBrowserNotifications(): () => void {
  const stop = new AbortController();
  if (!notificationsSupported()) return () => stop.abort();
  if (Notification.permission !== 'granted') {
    const start = () => follow(stop.signal);
    window.addEventListener(GRANTED, start, { once: true, signal: stop.signal });
  } else {
    follow(stop.signal);
  }
  return () => stop.abort();
}

function follow(signal: AbortSignal): void {
  let last: number | undefined;
  void (async () => {
    while (!signal.aborted) {
      try {
        for await (const ev of client.events({ lastEventId: last, signal })) {
          last = ev.id;
          if (!notificationsSupported() || Notification.permission !== 'granted') continue;
          if (!notificationFor(ev.type, ev.data, ALL_ON)) continue;
          const switches = await client.settings().then(
            (r) => r.settings.notifications,
            () => ALL_ON,
          );
          const n = notificationFor(ev.type, ev.data, switches);
          if (n) new Notification(n.title, { body: n.body, tag: n.tag });
        }
      } catch {
        // The server restarted or the key changed: try again shortly, resuming after the last event seen.
      }
      if (!signal.aborted) await new Promise((r) => setTimeout(r, 3_000));
    }
  })();
}
