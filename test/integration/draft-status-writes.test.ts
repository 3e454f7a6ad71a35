/**
 * A draft's status has one writer on the publishing side (domain/publishing/draft-status-writer.ts),
 * applied once after an outcome is written: a scheduled post and a publish-now are walked through
 * the real path (the scheduler, the X and Mastodon simulators) while a temporary SQLite trigger on
 * the test's own connection records every write of `drafts.status`. Each publish writes
 * `publishing` when it begins and then exactly one status for its outcome; a draft with another
 * entry still to come goes from `publishing` back to `scheduled`, never through `published`.
 */
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  clock,
  draft,
  draftStatus,
  fire,
  key,
  mastoId,
  MIN,
  scheduleAt,
  t,
  tweets,
  useSchedulerWorld,
  x,
  xId,
} from '../helpers/scheduler-world.js';

useSchedulerWorld();

const db = () => t.server.sqlite;
const writes = (draftId: string) =>
  (
    db().prepare('SELECT new FROM temp.status_writes WHERE draft_id = ? ORDER BY n').all(draftId) as { new: string }[]
  ).map((r) => r.new);

beforeAll(() => {
  db().exec(`CREATE TEMP TABLE status_writes (n INTEGER PRIMARY KEY, draft_id TEXT, new TEXT);
    CREATE TEMP TRIGGER status_written AFTER UPDATE OF status ON main.drafts
    BEGIN INSERT INTO status_writes (draft_id, new) VALUES (new.id, new.status); END;`);
});
beforeEach(() => db().exec('DELETE FROM temp.status_writes'));

describe('the draft status is written once per outcome', () => {
  it('a scheduled post: scheduled, then publishing when it begins, then published once', async () => {
    const id = await draft('One scheduled post, one status write per outcome');
    await scheduleAt(id, MIN, [{ accountId: xId, platform: 'microblog' }]);
    expect(writes(id)).toEqual(['scheduled']);
    clock.advance(MIN);
    await fire();
    expect(tweets('One scheduled post, one status write per outcome')).toBe(1);
    expect(writes(id)).toEqual(['scheduled', 'publishing', 'published']);
    expect(draftStatus(id)).toBe('published');
  });

  it('a draft with another entry to come goes back to scheduled without passing through published', async () => {
    const id = await draft('Two networks, ten minutes apart');
    await scheduleAt(id, MIN, [{ accountId: xId, platform: 'microblog' }]);
    await scheduleAt(id, 10 * MIN, [{ accountId: mastoId, platform: 'fedblog' }]);
    db().exec('DELETE FROM temp.status_writes');
    clock.advance(MIN);
    await fire();
    expect(writes(id)).toEqual(['publishing', 'scheduled']);
    clock.advance(9 * MIN);
    await fire();
    expect(writes(id)).toEqual(['publishing', 'scheduled', 'publishing', 'published']);
  });

  it('a scheduled post whose attempt fails and is retried later: publishing, then scheduled', async () => {
    const id = await draft('Failed once, retried later');
    await scheduleAt(id, MIN, [{ accountId: xId, platform: 'microblog' }]);
    db().exec('DELETE FROM temp.status_writes');
    clock.advance(MIN);
    x.faults.next({ kind: '503' }, { route: 'POST /2/tweets' });
    await fire();
    expect(writes(id)).toEqual(['publishing', 'scheduled']);
  });

  it('a publish-now: publishing, then its outcome once', async () => {
    const id = await draft('Published now, one status write per outcome');
    const r = await t.call('POST', '/microblog/publish', { key, body: { draftId: id, accountIds: [xId] } });
    expect(r.status, r.text).toBe(200);
    expect(writes(id)).toEqual(['publishing', 'published']);
  });
});
