/**
 * Issue #20: grace/missed, the retry policy and a draft's settled status each live in one pure
 * module (server/domain/publishing/rules/), which the scheduled runner and the publish service
 * both call. Each table row is one real case; the module must answer it the way the scheduler
 * and the publish service each did before they shared it.
 */
import { describe, expect, it } from 'vitest';
import { PlatformError } from '../../server/platforms/errors.js';
import { draftStatusOf, settledDraftStatus } from '../../server/domain/publishing/rules/draft-status.js';
import { isMissed, missedReason } from '../../server/domain/publishing/rules/missed.js';
import { MAX_ATTEMPTS, nextAttemptAt, retryHint, storageRetryAt } from '../../server/domain/publishing/rules/retry.js';

const MIN = 60_000;
const T = Date.parse('2026-11-20T09:00:00.000Z');

describe('missed', () => {
  const grace = 15 * MIN;
  const rows: [string, number, number, boolean][] = [
    ['on time', T, T, false],
    ['early (a clock jump back)', T, T - MIN, false],
    ['late by less than the grace', T, T + 14 * MIN, false],
    ['late by exactly the grace', T, T + grace, false],
    ['late by a millisecond more', T, T + grace + 1, true],
    ['closed all day', T, T + 8 * 60 * MIN, true],
  ];
  it.each(rows)('%s', (_name, dueAt, claimedAt, missed) => {
    expect(isMissed(dueAt, claimedAt, grace)).toBe(missed);
  });

  it.each([
    [0, T + 20 * MIN, 'Missed: Herald was not running at 2026-11-20T09:00:00.000Z (20 min late)'],
    [
      1,
      T + 90 * MIN + 29_000,
      'Missed: Herald was not running at 2026-11-20T09:00:00.000Z for attempt 2 (90 min late)',
    ],
    [2, T + 30_000, 'Missed: Herald was not running at 2026-11-20T09:00:00.000Z for attempt 3 (1 min late)'],
  ])('reason after %i attempts', (attempts, claimedAt, text) => {
    expect(missedReason(T, attempts, claimedAt)).toBe(text);
  });
});

describe('retry', () => {
  const rows: [string, number, { after?: number } | undefined, number | null][] = [
    ['not worth retrying', 1, undefined, null],
    ['first attempt failed: about a minute', 1, {}, T + MIN],
    ['second attempt failed: five minutes', 2, {}, T + 5 * MIN],
    ['attempts used up', MAX_ATTEMPTS, {}, null],
    ['a reset later than the backoff wins', 1, { after: T + 10 * MIN }, T + 10 * MIN],
    ['a reset sooner than the backoff does not', 1, { after: T + 1_000 }, T + MIN],
  ];
  it.each(rows)('%s', (_name, attempt, retry, at) => {
    expect(nextAttemptAt(attempt, T, retry)).toBe(at);
  });

  it('uses a given backoff, its last step repeating', () => {
    expect(nextAttemptAt(1, T, {}, [10, 20])).toBe(T + 10);
    expect(nextAttemptAt(2, T, {}, [10])).toBe(T + 10);
  });

  it.each([
    [1, 5_000],
    [2, 10_000],
    [3, 20_000],
    [4, 30_000],
    [9, 30_000],
  ])('a full disk, try %i: waits %i ms', (tries, wait) => {
    expect(storageRetryAt(tries, T)).toBe(T + wait);
  });

  it.each([
    ['a 5xx', new PlatformError('fedblog', 'transient', 'HTTP 503'), {}],
    ['a refusal', new PlatformError('fedblog', 'permanent', 'too long'), undefined],
    ['not a network error', new Error('disk'), undefined],
  ])('%s', (_name, err, hint) => {
    const h = retryHint(err);
    if (hint === undefined) expect(h).toBeUndefined();
    else expect(h).toMatchObject(hint);
  });
});

describe('draft status', () => {
  it.each([
    [3, 3, 'published'],
    [1, 3, 'partially_published'],
    [0, 3, 'failed'],
  ] as const)('%i of %i published: %s', (published, targets, status) => {
    expect(draftStatusOf(published, targets)).toBe(status);
  });

  const m = (o: Record<string, string>) => new Map(Object.entries(o));
  const rows: [string, Map<string, string>, { accountId: string; status: string }[], string | null][] = [
    ['nothing known', m({}), [], null],
    ['a publish still running', m({ a: 'published', b: 'publishing' }), [], null],
    ['all published', m({ a: 'published', b: 'published' }), [], 'published'],
    ['some published', m({ a: 'published', b: 'failed' }), [], 'partially_published'],
    ['none published', m({ a: 'failed', b: 'needs_review' }), [], 'failed'],
    [
      'all missed, none begun: back to draft',
      m({}),
      [
        { accountId: 'a', status: 'missed' },
        { accountId: 'b', status: 'missed' },
      ],
      'draft',
    ],
    [
      'missed and refused, none begun',
      m({}),
      [
        { accountId: 'a', status: 'missed' },
        { accountId: 'b', status: 'failed' },
      ],
      'failed',
    ],
    ['one published, one missed', m({ a: 'published' }), [{ accountId: 'b', status: 'missed' }], 'partially_published'],
    [
      'missed, then published at once meanwhile',
      m({ a: 'published' }),
      [{ accountId: 'a', status: 'missed' }],
      'published',
    ],
    ['an evergreen repeat skipped one network on purpose', m({ a: 'published', b: 'skipped' }), [], 'published'],
  ];
  it.each(rows)('%s', (_name, latest, unsent, status) => {
    expect(settledDraftStatus(latest, unsent)).toBe(status);
  });
});
