/**
 * Which events of the stream (GET /events) become a notification, and its words: one pure rule
 * for the browser's Notification API (renderer/) and the desktop app's system notifications
 * (main/), so both show the same thing and honour the same switches (settings `notifications`).
 *
 * Kinds: a post published, a post that failed for good (a failure with an automatic retry queued
 * is not one yet), a post missed while Herald was closed, an account that needs connecting again.
 */
import { NETWORK_LABELS, type Platform } from './counting.js';

export const NOTIFICATION_KINDS = ['published', 'failed', 'missed', 'reconnect'] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];
export type NotificationSwitches = Record<NotificationKind, boolean>;

export interface HeraldNotification {
  kind: NotificationKind;
  title: string;
  body: string;
  /** Same post and kind, same tag: a notification replaces its own earlier copy. */
  tag: string;
}

const cut = (s: unknown, n: number) => (typeof s === 'string' ? s.slice(0, n) : '');

/** The notification for one event, or null (not a notifying kind, or its switch is off). */
export function notificationFor(
  type: string,
  data: Record<string, unknown>,
  switches: NotificationSwitches,
): HeraldNotification | null {
  const network =
    NETWORK_LABELS[data.platform as Platform] ?? (typeof data.platform === 'string' ? data.platform : 'the network');
  const tag = `${type}:${String(data.draftId ?? '')}:${String(data.accountId ?? '')}`;
  const make = (kind: NotificationKind, title: string, body: string): HeraldNotification | null =>
    switches[kind] ? { kind, title: cut(title, 100), body: cut(body, 300), tag } : null;
  switch (type) {
    case 'post.published':
      return make('published', `Published to ${network}`, cut(data.url, 300));
    case 'post.failed':
      // A retry is queued: not a failure to tell of yet.
      if (typeof data.nextAttemptAt === 'string') return null;
      return make('failed', `Publishing to ${network} failed`, cut(data.error, 300));
    case 'post.missed':
      return make(
        'missed',
        `Missed on ${network}`,
        cut(data.error, 300) || 'Herald was not running when it was due; schedule it again',
      );
    case 'account.needs_reauth':
      return make('reconnect', `Connect your ${network} account again`, 'Herald cannot post to it until you do');
    default:
      return null;
  }
}
