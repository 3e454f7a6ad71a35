/**
 * #32 "one time zone everywhere", on a machine in UTC whose user chose Europe/Berlin (24-hour
 * en-GB clock): the walk of test/helpers/zone-walk.ts (wizard, set, slot post, every page with
 * times, the Move dialog, Settings), with screenshots of the composer's fire times and of
 * Settings' zone field at 1280 and 390 px.
 */
import { afterAll, beforeAll, it } from 'vitest';
import { runUnder, startZoneApp, walkEveryPage, type ZoneWalk } from '../helpers/zone-walk.js';
import type { UiApp } from '../helpers/ui-app.js';

const w: ZoneWalk = {
  machine: 'UTC',
  user: 'Europe/Berlin',
  locale: 'en-GB',
  gap: {
    local: '2027-03-28T02:30',
    words:
      '02:30 does not exist in Europe/Berlin that day (the clocks jump forward): moved forward by 60 minutes ' +
      'to 03:30 (UTC+02:00)',
  },
};
runUnder(w.machine);
let app: UiApp;

beforeAll(async () => {
  app = await startZoneApp(w);
}, 60_000);
afterAll(async () => {
  await app?.close();
});

it("every page shows times in the set's or the user's zone (Berlin), none in the machine's (UTC)", async () => {
  await walkEveryPage(app, w, async (name) => {
    if (name === 'compose-fire-times') await app.page.locator('[aria-label="Scheduled"]').scrollIntoViewIfNeeded();
    await app.shot(`zone-${name}-1280`);
    await app.page.setViewportSize({ width: 390, height: 844 });
    await app.shot(`zone-${name}-390`);
    await app.page.setViewportSize({ width: 1280, height: 800 });
  });
}, 120_000);
