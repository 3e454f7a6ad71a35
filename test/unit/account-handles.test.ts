/**
 * Messages name a LinkedIn member by name, never as an @handle LinkedIn does not have ("@Jane
 * Writer"); accounts on networks with handles keep their @.
 */
import { expect, it } from 'vitest';
import { accountHealth } from '../../server/domain/accounts/health.js';
import { accountHandle } from '../../server/core/handles.js';

const now = Date.parse('2026-11-28T10:00:00Z');
const expiring = JSON.stringify({ token: { expiresAt: now + 3 * 86_400_000, refresh: 'none' } });

it('a LinkedIn member by name, a Bluesky account by its @handle', () => {
  expect(accountHandle('problog', 'Jane Writer')).toBe('Jane Writer');
  expect(accountHandle('skyblog', 'ada.bsky.social')).toBe('@ada.bsky.social');
  const li = accountHealth({ platform: 'problog', username: 'Jane Writer', status: 'active', meta: expiring }, now);
  expect(li.message).toMatch(/The LinkedIn sign-in of Jane Writer expires in 3 days/);
  expect(li.message).not.toContain('@');
  const revoked = accountHealth(
    { platform: 'skyblog', username: 'ada.bsky.social', status: 'needs_reauth', meta: '{}' },
    now,
  );
  expect(revoked.message).toContain('@ada.bsky.social');
});
