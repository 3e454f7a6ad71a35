/**
 * Issue #19 item 8: the texts Herald shows about a post, as a table of what happened and what
 * happens next. Each row is one real state; the sentence must say only what is true of it (no
 * "will try again" without a retry queued, no "the rest are published" when none is, no
 * "Published to 0 accounts", no Retry offered while an automatic retry is queued).
 */
import { describe, expect, it } from 'vitest';
import {
  creditsShortText,
  creditsWarningText,
  publishSummaryText,
  targetStatusText,
  threadPartsText,
  type TargetState,
} from '../../text/status-text.js';

const AT = '2026-11-20T10:05:00.000Z';
const fmt = (iso: string) => iso.slice(11, 16);

describe('one account', () => {
  const rows: [string, TargetState, { text: string; canRetry: boolean }][] = [
    ['published', { status: 'published', network: 'Mastodon' }, { text: 'Published on Mastodon.', canRetry: false }],
    [
      'sending',
      { status: 'publishing', network: 'Mastodon' },
      { text: 'Sending on Mastodon. Waiting for the network to confirm.', canRetry: false },
    ],
    [
      'scheduled, not due',
      { status: 'pending', network: 'X', scheduledFor: AT },
      { text: 'Scheduled on X. Sends at 10:05.', canRetry: false },
    ],
    [
      'failed attempt, retry queued (progress)',
      { status: 'pending', network: 'X', reason: 'X had a server problem (HTTP 503)', nextAttemptAt: AT },
      {
        text: 'Not published yet on X: X had a server problem (HTTP 503). Herald tries again at 10:05.',
        canRetry: false,
      },
    ],
    [
      'failed attempt, retry queued (history)',
      { status: 'failed', network: 'X', reason: 'X had a server problem (HTTP 503)', nextAttemptAt: AT },
      { text: 'Failed on X: X had a server problem (HTTP 503). Herald tries again at 10:05.', canRetry: false },
    ],
    [
      'failed, no retry',
      { status: 'failed', network: 'X', reason: 'X had a server problem (HTTP 503)' },
      {
        text:
          'Failed on X: X had a server problem (HTTP 503). Not tried again automatically: use Retry when the ' +
          'problem is fixed.',
        canRetry: true,
      },
    ],
    [
      'credits short',
      {
        status: 'failed',
        network: 'LinkedIn',
        reason: 'Publishing to 1 account needs 10 credits and 0 are left; nothing was sent',
        errorCode: 'INSUFFICIENT_CREDITS',
      },
      {
        text:
          'Failed on LinkedIn: Publishing to 1 account needs 10 credits and 0 are left; nothing was sent. Not ' +
          "tried again automatically: add credits (or wait for next month's), then Retry.",
        canRetry: true,
      },
    ],
    [
      'token expired',
      { status: 'failed', network: 'X', reason: "X no longer accepts Herald's access", errorCode: 'TOKEN_EXPIRED' },
      {
        text:
          "Failed on X: X no longer accepts Herald's access. Not tried again automatically: connect the " +
          'account again, then Retry.',
        canRetry: true,
      },
    ],
    [
      'unconfirmed',
      { status: 'needs_review', network: 'LinkedIn', reason: 'LinkedIn may have published post 1' },
      {
        text:
          'Unconfirmed on LinkedIn: LinkedIn may have published post 1. Check the account, then say whether it ' +
          'went out.',
        canRetry: false,
      },
    ],
    [
      'missed',
      { status: 'missed', network: 'Bluesky', reason: 'Missed: Herald was not running at 09:00' },
      {
        text:
          'Missed on Bluesky: Missed: Herald was not running at 09:00. Not published and not charged: schedule ' +
          'it again or Retry to publish now.',
        canRetry: true,
      },
    ],
    ['cancelled', { status: 'cancelled' }, { text: 'Cancelled.', canRetry: false }],
    [
      'skipped by an evergreen repeat',
      { status: 'skipped', network: 'X', reason: 'X refuses a text it was sent before.' },
      { text: 'Skipped on X: X refuses a text it was sent before.', canRetry: false },
    ],
    [
      'handed off to the instance',
      { status: 'handed_off', network: 'Mastodon', instance: 'mastodon.social', scheduledFor: AT },
      {
        text: 'Handed to mastodon.social, which publishes it itself. Goes out at 10:05, also with Herald closed.',
        canRetry: false,
      },
    ],
    [
      'hand-off refused, sent by Herald',
      {
        status: 'pending',
        network: 'Mastodon',
        scheduledFor: AT,
        notice: 'Mastodon refused the hand-off (HTTP 422); Herald sends it itself at its time.',
      },
      {
        text:
          'Scheduled on Mastodon (Mastodon refused the hand-off (HTTP 422); Herald sends it itself at its ' +
          'time). Sends at 10:05.',
        canRetry: false,
      },
    ],
    [
      'a thread being sent',
      { status: 'publishing', network: 'LinkedIn', parts: { sent: 3, total: 5 } },
      { text: 'Sending on LinkedIn (3 of 5 parts sent). Waiting for the network to confirm.', canRetry: false },
    ],
    [
      'a thread cut short, retry queued',
      {
        status: 'failed',
        network: 'X',
        reason: 'X had a server problem (HTTP 503)',
        nextAttemptAt: AT,
        parts: { sent: 2, total: 5 },
      },
      {
        text:
          'Failed on X: X had a server problem (HTTP 503); 2 of 5 parts sent. Herald tries again at 10:05 ' +
          '(the other 3 parts only).',
        canRetry: false,
      },
    ],
    [
      'a thread cut short before its last part, no retry',
      { status: 'failed', network: 'Bluesky', reason: 'Bluesky refused it', parts: { sent: 3, total: 4 } },
      {
        text:
          'Failed on Bluesky: Bluesky refused it; 3 of 4 parts sent. Not tried again automatically: use Retry ' +
          'when the problem is fixed (the last part only).',
        canRetry: true,
      },
    ],
    [
      'a thread all sent, or none of it',
      { status: 'failed', network: 'X', reason: 'X refused it', parts: { sent: 0, total: 3 } },
      {
        text: 'Failed on X: X refused it. Not tried again automatically: use Retry when the problem is fixed.',
        canRetry: true,
      },
    ],
    [
      'a published thread',
      { status: 'published', network: 'X', parts: { sent: 3, total: 3 } },
      { text: 'Published on X.', canRetry: false },
    ],
  ];
  it.each(rows)('%s', (_name, state, expected) => {
    const s = targetStatusText(state, fmt);
    expect({ text: s.text, canRetry: s.canRetry }).toEqual(expected);
  });
  it('no sentence promises a retry that is not queued', () => {
    for (const [, state] of rows) {
      const s = targetStatusText(state, fmt);
      if (!state.nextAttemptAt) expect(s.text, s.text).not.toMatch(/tries again|will try|try again/i);
    }
  });
});

describe('a publish to several accounts', () => {
  const pub = (network: string): TargetState => ({ status: 'published', network });
  const fail = (network: string, extra: Partial<TargetState> = {}): TargetState => ({
    status: 'failed',
    network,
    reason: `${network} refused`,
    ...extra,
  });
  const rows: [string, TargetState[], string][] = [
    ['no account', [], 'Nothing was sent: no account was chosen.'],
    ['all 5 published', ['X', 'Bluesky', 'Mastodon', 'Threads', 'LinkedIn'].map(pub), 'Published to 5 accounts.'],
    ['1 published', [pub('X')], 'Published to 1 account.'],
    [
      'all 5 failed, no retry',
      ['X', 'Bluesky', 'Mastodon', 'Threads', 'LinkedIn'].map((n) => fail(n)),
      'Not published to any of the 5 accounts; 5 failed. They are not tried again automatically: see History to retry.',
    ],
    [
      'the only one failed, credits',
      [fail('X', { reason: 'Needs 10 credits and 0 are left', errorCode: 'INSUFFICIENT_CREDITS' })],
      'Not published; Needs 10 credits and 0 are left. Not tried again automatically: add credits (or wait ' +
        "for next month's), then Retry.",
    ],
    [
      '2 of 3 published, 1 failed',
      [pub('X'), pub('Bluesky'), fail('Mastodon')],
      'Published to 2 of 3 accounts; 1 failed. It is not tried again automatically: see History to retry.',
    ],
    [
      'the only one a thread cut short',
      [fail('LinkedIn', { parts: { sent: 2, total: 5 } })],
      'Not published in full; LinkedIn refused; 2 of 5 parts sent. Not tried again automatically: use Retry ' +
        'when the problem is fixed.',
    ],
    [
      '1 of 2 published, the other a thread cut short',
      [pub('X'), fail('Bluesky', { parts: { sent: 1, total: 3 } })],
      'Published to 1 of 2 accounts; 1 failed; Bluesky: 1 of 3 parts sent. It is not tried again ' +
        'automatically: see History to retry.',
    ],
    [
      '1 of 2 published, 1 retrying',
      [pub('X'), fail('Mastodon', { nextAttemptAt: AT })],
      'Published to 1 of 2 accounts; 1 failed for now. Herald tries it again from 10:05.',
    ],
    [
      'none published, both retrying',
      [
        fail('X', { nextAttemptAt: AT }),
        fail('Mastodon', { status: 'pending', nextAttemptAt: '2026-11-20T10:09:00.000Z' }),
      ],
      'Not published to any of the 2 accounts; 2 failed for now. Herald tries them again from 10:05.',
    ],
    [
      'one unconfirmed',
      [pub('X'), { status: 'needs_review', network: 'LinkedIn', reason: 'unsure' }],
      'Published to 1 of 2 accounts; 1 unconfirmed. Check the account and say whether it went out (History).',
    ],
    [
      'one missed',
      [pub('X'), { status: 'missed', network: 'Bluesky' }],
      'Published to 1 of 2 accounts; 1 missed. Schedule the missed ones again.',
    ],
    ['still sending', [pub('X'), { status: 'publishing', network: 'Mastodon' }], 'Publishing: 1 of 2 done so far.'],
    [
      'failed, retrying and stopped',
      [fail('X'), fail('Mastodon', { nextAttemptAt: AT }), pub('Bluesky')],
      'Published to 1 of 3 accounts; 1 failed; 1 failed for now. It is not tried again automatically: see ' +
        'History to retry; Herald tries it again from 10:05.',
    ],
    [
      'an evergreen repeat that skipped X',
      [pub('Mastodon'), { status: 'skipped', network: 'X', reason: 'X refuses a text it was sent before.' }],
      'Published to 1 account; skipped on X: X refuses a text it was sent before.',
    ],
    [
      'skipped X, the other one failed',
      [fail('Mastodon'), { status: 'skipped', network: 'X', reason: 'X refuses a text it was sent before' }],
      'Not published; Mastodon refused; skipped on X: X refuses a text it was sent before. Not tried again ' +
        'automatically: use Retry when the problem is fixed.',
    ],
    [
      'only skipped',
      [{ status: 'skipped', network: 'X', reason: 'X refuses a text it was sent before' }],
      'Nothing was sent; skipped on X: X refuses a text it was sent before.',
    ],
  ];
  it.each(rows)('%s', (_name, targets, text) => {
    expect(publishSummaryText(targets, fmt).text).toBe(text);
  });
  it('never says "the rest are published" or "Published to 0"', () => {
    for (const [, targets] of rows) {
      const { text } = publishSummaryText(targets, fmt);
      expect(text).not.toMatch(/the rest|Published to 0/);
    }
  });
});

describe('credits against what is scheduled', () => {
  it.each([
    [
      { balance: 30, costPerPost: 10, scheduledPosts: 5 },
      'Credits for 3 more posts; 5 scheduled. 2 will fail unless credits are added before they are sent.',
    ],
    [
      { balance: 10, costPerPost: 10, scheduledPosts: 2 },
      'Credits for 1 more post; 2 scheduled. 1 will fail unless credits are added before they are sent.',
    ],
    [
      { balance: 0, costPerPost: 10, scheduledPosts: 1 },
      'Credits for 0 more posts; 1 scheduled. 1 will fail unless credits are added before they are sent.',
    ],
    [{ balance: 50, costPerPost: 10, scheduledPosts: 5 }, null],
    [{ balance: 50, costPerPost: 10, scheduledPosts: 0 }, null],
  ])('%o', (input, text) => {
    expect(creditsWarningText(input)).toBe(text);
  });
});

describe('credits short for a schedule', () => {
  it.each([
    [
      { posts: 5, need: 50, available: 100, reserved: 80, month: 'this month' },
      'Credits fall short: 5 posts scheduled for this month need 50 credits and 20 are free, after the 80 ' +
        'already reserved by scheduled posts. ' +
        'A post that fires without credits fails: add credits on the Credits page or raise the monthly grant ' +
        'in Settings.',
    ],
    [
      { posts: 1, need: 10, available: 0, reserved: 0, month: 'February 2027' },
      'Credits fall short: 1 post scheduled for February 2027 needs 10 credits and 0 are free. ' +
        'A post that fires without credits fails: add credits on the Credits page or raise the monthly grant ' +
        'in Settings.',
    ],
  ])('%o', (input, text) => {
    expect(creditsShortText(input)).toBe(text);
  });
});

describe("a thread's parts on a progress line", () => {
  const parts = (...st: string[]) => st.map((status) => ({ status }));
  it.each([
    ['going out', 'publishing', parts('sent', 'sent', 'sent', 'sending', 'pending'), 'part 4 of 5'],
    ['not started', 'publishing', parts('pending', 'pending'), 'part 1 of 2'],
    ['stopped short', 'failed', parts('sent', 'unconfirmed', 'pending'), '1 of 3 parts sent'],
    ['stopped before any part', 'failed', parts('pending', 'pending'), null],
    ['all out', 'published', parts('sent', 'sent', 'sent'), '3 parts'],
    ['a single post', 'publishing', parts('sending'), null],
    ['counted (history)', 'failed', { sent: 2, total: 5 }, '2 of 5 parts sent'],
  ] as const)('%s', (_name, status, list, expected) => {
    expect(threadPartsText(status, list)).toBe(expected);
  });
});
