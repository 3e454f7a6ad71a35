/**
 * #32 "one time zone everywhere", on a machine in America/New_York whose user chose Asia/Kolkata
 * (+05:30, no DST; en-US, a 12-hour clock): the walk of test/helpers/zone-walk.ts.
 */
import { afterAll, beforeAll, it } from 'vitest';
import { runUnder, startZoneApp, walkEveryPage, type ZoneWalk } from '../helpers/zone-walk.js';
import type { UiApp } from '../helpers/ui-app.js';

const w: ZoneWalk = { machine: 'America/New_York', user: 'Asia/Kolkata', locale: 'en-US' };
runUnder(w.machine);
let app: UiApp;

beforeAll(async () => {
  app = await startZoneApp(w);
}, 60_000);
afterAll(async () => {
  await app?.close();
});

it("every page shows times in the set's or the user's zone (Kolkata), none in the machine's (New York)", async () => {
  await walkEveryPage(app, w, async () => undefined);
}, 120_000);
