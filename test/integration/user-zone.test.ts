/**
 * The user's zone is the setting `timeZone` (the wizard's choice, else the machine's): GET /me
 * answers it, a new social set starts in it (the first, default set too), the zone column the
 * credit month reads follows it, and an unknown zone anywhere is 400 INVALID_INPUT naming the
 * field, nothing applied. The test process runs in one zone and the user chooses others, so an
 * answer that fell back to the machine's zone shows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { machineTimeZone } from '../../time/index.js';

const OWNER = { email: 'zone-owner@example.test', password: 'zone owner password' };
// Two zones, neither of them the machine's (whatever TZ the suite runs under).
const [ZONE_A, ZONE_B] = ['Asia/Kolkata', 'Europe/Berlin', 'America/New_York'].filter((z) => z !== machineTimeZone());

let plain: TestServer;
let chosen: TestServer;
const servers: TestServer[] = [];
const setup = async (t: TestServer, body: Record<string, unknown>) =>
  t.call<any>('POST', '/auth/setup', { body: { ...OWNER, ...body } });
const paths = (r: { body: any }) => (r.body.details ?? []).map((d: { path: string }) => d.path);

beforeAll(async () => {
  plain = await startServer({ owner: false });
  chosen = await startServer({ owner: false });
  servers.push(plain, chosen);
});
afterAll(async () => {
  await Promise.all(servers.map((t) => t.close()));
});

describe("the user's zone", () => {
  it('POST /auth/setup with an unknown zone is 400 naming body.timezone and creates no owner', async () => {
    const bad = await setup(chosen, { timezone: 'Mars/Olympus_Mons' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('INVALID_INPUT');
    expect(paths(bad)).toEqual(['body.timezone']);
    expect((await chosen.call<any>('GET', '/auth/setup')).body.needsSetup).toBe(true);
  });

  it("defaults to the machine's zone; a zone given at setup becomes the setting", async () => {
    const a = await setup(plain, {});
    expect(a.status, a.text).toBe(200);
    const me = await plain.call<any>('GET', '/me', { key: a.body.apiKey.key });
    expect(me.body.timezone).toBe(machineTimeZone());

    const b = await setup(chosen, { timezone: ZONE_A });
    expect(b.status, b.text).toBe(200);
    const key = b.body.apiKey.key;
    expect((await chosen.call<any>('GET', '/me', { key })).body.timezone).toBe(ZONE_A);
    expect((await chosen.call<any>('GET', '/settings', { key })).body.settings.timeZone).toBe(ZONE_A);
  });

  it('GET /me answers the setting; the first (default) set and later ones start in it', async () => {
    const key = await chosen.login(OWNER.email, OWNER.password);
    const put = await chosen.call<any>('PUT', '/settings', { key, body: { timeZone: ZONE_B } });
    expect(put.status, put.text).toBe(200);
    expect((await chosen.call<any>('GET', '/me', { key })).body.timezone).toBe(ZONE_B);
    // The zone column the credit month is computed from follows the setting.
    const userZones = chosen.server.sqlite.prepare('SELECT DISTINCT timezone FROM users').pluck().all();
    expect(userZones).toEqual([ZONE_B]);

    const first = await chosen.call<any>('POST', '/social-sets', { key, body: { name: 'First' } });
    expect(first.status, first.text).toBe(200);
    expect(first.body.socialSet).toMatchObject({ isDefault: true, timeZone: ZONE_B });
    const own = await chosen.call<any>('POST', '/social-sets', {
      key,
      body: { name: 'Own zone', timeZone: 'america/new_york' },
    });
    expect(own.body.socialSet.timeZone).toBe('America/New_York');

    await chosen.call<any>('PUT', '/settings', { key, body: { timeZone: ZONE_A } });
    const later = await chosen.call<any>('POST', '/social-sets', { key, body: { name: 'Later' } });
    expect(later.body.socialSet.timeZone).toBe(ZONE_A);
    // A set keeps its own zone when the user's changes.
    const sets = (await chosen.call<any>('GET', '/social-sets', { key })).body.socialSets;
    expect(sets.find((s: any) => s.name === 'First').timeZone).toBe(ZONE_B);
  });

  it('an unknown zone in settings or on a set is 400 naming the field, nothing applied', async () => {
    const key = await chosen.login(OWNER.email, OWNER.password);
    const before = (await chosen.call<any>('GET', '/me', { key })).body.timezone;
    const cases: [string, string, unknown, string][] = [
      ['PUT', '/settings', { timeZone: 'Nowhere/Land' }, 'body.timeZone'],
      ['PUT', '/settings', { timeZone: '+05:30' }, 'body.timeZone'],
      ['POST', '/social-sets', { name: 'Mars', timeZone: 'Mars/Olympus_Mons' }, 'timeZone'],
    ];
    for (const [method, path, body, field] of cases) {
      const r = await chosen.call<any>(method, path, { key, body });
      expect(r.status, `${method} ${path} ${JSON.stringify(body)}`).toBe(400);
      expect(r.body.error).toBe('INVALID_INPUT');
      expect(paths(r)).toEqual([field]);
      expect(r.body.message).toMatch(/Nowhere\/Land|\+05:30|Mars\/Olympus_Mons/);
    }
    expect((await chosen.call<any>('GET', '/me', { key })).body.timezone).toBe(before);
    const sets = (await chosen.call<any>('GET', '/social-sets', { key })).body.socialSets;
    expect(sets.map((s: any) => s.name)).not.toContain('Mars');
    const set = sets[0];
    const upd = await chosen.call<any>('PUT', '/social-sets', { key, body: { id: set.id, timeZone: 'Nowhere/Land' } });
    expect(upd.status).toBe(400);
    expect(paths(upd)).toEqual(['timeZone']);
  });
});
