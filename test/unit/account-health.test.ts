/** Credential health as a table: the state from the token's facts and the account's status, at an injected instant. */
import { describe, expect, it } from 'vitest';
import { accountHealth } from '../../server/domain/accounts/health.js';

const DAY = 24 * 60 * 60_000;
const NOW = Date.parse('2025-06-01T12:00:00Z');
const row = (status: string, meta: object, platform = 'problog') => ({
  platform,
  username: 'ada',
  status,
  meta: JSON.stringify(meta),
});

describe('accountHealth', () => {
  const cases: [string, ReturnType<typeof row>, string, RegExp?][] = [
    ['no expiry known (Mastodon)', row('active', {}, 'fedblog'), 'ok'],
    ['LinkedIn, 60 days left', row('active', { token: { expiresAt: NOW + 60 * DAY, refresh: 'none' } }), 'ok'],
    [
      'LinkedIn, 7 days and a minute left: not yet',
      row('active', { token: { expiresAt: NOW + 7 * DAY + 60_000, refresh: 'none' } }),
      'ok',
    ],
    [
      'LinkedIn, exactly 7 days left: warning',
      row('active', { token: { expiresAt: NOW + 7 * DAY, refresh: 'none' } }),
      'expiring',
      /expires in 7 days/,
    ],
    [
      'LinkedIn, 1 hour left',
      row('active', { token: { expiresAt: NOW + 3_600_000, refresh: 'none' } }),
      'expiring',
      /expires in 1 day:/,
    ],
    ['LinkedIn, expired', row('active', { token: { expiresAt: NOW - 1, refresh: 'none' } }), 'expired', /reconnect/],
    [
      'Threads, 3 days left, renewable before expiry',
      row('active', { token: { expiresAt: NOW + 3 * DAY, refresh: 'before_expiry' } }, 'threadblog'),
      'expiring',
      /daily check/,
    ],
    [
      'Threads, expired',
      row('active', { token: { expiresAt: NOW - DAY, refresh: 'before_expiry' } }, 'threadblog'),
      'expired',
    ],
    [
      'X, 2-hour token past its end but a refresh token',
      row('active', { token: { expiresAt: NOW - DAY, refresh: 'any_time' } }, 'microblog'),
      'ok',
    ],
    [
      'refused refresh, token not expired: revoked',
      row('needs_reauth', { token: { expiresAt: NOW + 30 * DAY, refresh: 'none' } }),
      'revoked',
      /reconnect/,
    ],
    [
      'refused, past its end: expired',
      row('needs_reauth', { token: { expiresAt: NOW - DAY, refresh: 'none' } }),
      'expired',
    ],
    [
      'rate limited until later',
      row('active', { rateLimitedUntil: NOW + 900_000 }, 'microblog'),
      'rate_limited',
      /limits @ada until/,
    ],
    ['rate limit over', row('active', { rateLimitedUntil: NOW - 1 }, 'microblog'), 'ok'],
  ];
  for (const [name, r, state, message] of cases) {
    it(name, () => {
      const h = accountHealth(r, NOW);
      expect(h.state).toBe(state);
      if (message) expect(h.message).toMatch(message);
    });
  }

  it('reports the expiry as ISO time', () => {
    expect(accountHealth(row('active', { token: { expiresAt: NOW, refresh: 'none' } }), NOW - DAY).expiresAt).toBe(
      new Date(NOW).toISOString(),
    );
  });
});
