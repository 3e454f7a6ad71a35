/**
 * Two published Mastodon drafts made evergreen and, 31 days on by the injected clock, filled into
 * the default social set's free slots (09:00 and 17:30 every day): the start of the UI tests of
 * evergreen fills.
 */
import { expect } from 'vitest';
import { connectOAuth } from './oauth-connect.js';
import type { TestClock, TestServer } from './server.js';

export const EVERGREEN_TITLES = ['The long guide to slots', 'Ten tips for threads'];

export async function twoEvergreenFills(t: TestServer, key: string, mastodonUrl: string, clock: TestClock) {
  const call = (method: string, p: string, body?: unknown) => t.call(method, p, { key, body });
  const mastoId = (await connectOAuth(t, key, 'fedblog', { instanceUrl: mastodonUrl })).body.accountUuid;
  const setId = (await call('GET', '/social-sets')).body.socialSets.find((s: any) => s.isDefault).id as string;
  const slots = [1, 2, 3, 4, 5, 6, 7].flatMap((day) => [
    { day, time: '09:00' },
    { day, time: '17:30' },
  ]);
  expect((await call('PUT', `/social-sets/${setId}/slots`, { slots })).status).toBe(200);
  for (const title of EVERGREEN_TITLES) {
    const d = (await call('POST', '/microblog/drafts', { title, tweets: [{ content: title }] })).body.draft.id;
    expect((await call('POST', '/microblog/publish', { draftId: d, accountIds: [mastoId] })).status).toBe(200);
    await call('PUT', `/microblog/drafts/${d}/evergreen`, { enabled: true, minDaysBetween: 30 });
  }
  clock.advance(31 * 86_400_000);
  const filled = (await call('POST', '/microblog/queue/evergreen/fill')).body.filled as any[];
  expect(filled).toHaveLength(2);
  return { mastoId, setId, filled };
}
