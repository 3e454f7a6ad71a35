/**
 * The one rule that turns an event of the stream into a notification (text/notification-text.ts),
 * for the UI's browser notifications and the desktop app's system ones alike: a table of events
 * and switches, each with the notification it gives or none.
 */
import { describe, expect, it } from 'vitest';
import { notificationFor, type NotificationSwitches } from '../../text/notification-text.js';

const ALL: NotificationSwitches = { published: true, failed: true, missed: true, reconnect: true };
const post = { at: '2026-11-15T12:00:00.000Z', draftId: 'd1', accountId: 'a1' };

describe('notificationFor', () => {
  const table: [string, Record<string, unknown>, { title: string; body: string } | null][] = [
    [
      'post.published',
      { ...post, platform: 'microblog', url: 'https://x.com/i/web/status/1' },
      { title: 'Published to X', body: 'https://x.com/i/web/status/1' },
    ],
    [
      'post.failed',
      { ...post, platform: 'fedblog', error: 'Mastodon refused it', nextAttemptAt: null },
      { title: 'Publishing to Mastodon failed', body: 'Mastodon refused it' },
    ],
    ['post.failed', { ...post, platform: 'fedblog', error: '503', nextAttemptAt: '2026-11-15T12:01:00.000Z' }, null],
    [
      'post.missed',
      { ...post, platform: 'threadblog', error: 'Missed: Herald was not running' },
      { title: 'Missed on Threads', body: 'Missed: Herald was not running' },
    ],
    [
      'account.needs_reauth',
      { at: post.at, accountId: 'a1', platform: 'problog' },
      { title: 'Connect your LinkedIn account again', body: 'Herald cannot post to it until you do' },
    ],
    ['post.scheduled', { ...post, platform: 'skyblog', scheduledFor: post.at }, null],
    ['post.sending', { ...post, platform: 'skyblog' }, null],
    ['credits.changed', { at: post.at, balance: 990 }, null],
  ];
  it.each(table)('%s %j', (type, data, want) => {
    const n = notificationFor(type, data, ALL);
    if (want === null) expect(n).toBeNull();
    else expect(n).toMatchObject(want);
  });

  it('each kind has its own switch', () => {
    for (const [type, data, kind] of [
      ['post.published', table[0][1], 'published'],
      ['post.failed', table[1][1], 'failed'],
      ['post.missed', table[3][1], 'missed'],
      ['account.needs_reauth', table[4][1], 'reconnect'],
    ] as const) {
      expect(notificationFor(type, data, { ...ALL, [kind]: false }), kind).toBeNull();
      expect(
        notificationFor(type, data, {
          ...ALL,
          [kind]: false,
          ...(kind === 'published' ? { failed: false } : { published: false }),
        }),
        kind,
      ).toBeNull();
      expect(notificationFor(type, data, ALL)?.kind).toBe(kind);
    }
  });

  it('cuts long words to size and tags by post and kind', () => {
    const n = notificationFor(
      'post.failed',
      { ...post, platform: 'microblog', error: 'e'.repeat(1000), nextAttemptAt: null },
      ALL,
    )!;
    expect(n.body).toHaveLength(300);
    expect(n.tag).toBe('post.failed:d1:a1');
  });
});
