// The Mastodon simulator's scheduled statuses, driven by masto (a client nobody here wrote), on
// the simulator's own clock: create with scheduled_at, the 5-minute minimum, GET/PUT/DELETE, and
// publishing at the time.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOAuthAPIClient, createRestAPIClient, MastoHttpError, type mastodon } from 'masto';
import { startMastodonSimulator, type MastodonSimulator } from './mastodon.simulator.js';

const MIN = 60_000;
let now = Date.parse('2026-11-16T08:00:00Z');
let sim: MastodonSimulator;
let client: mastodon.rest.Client;
const at = (ms: number) => new Date(now + ms).toISOString();

beforeAll(async () => {
  sim = await startMastodonSimulator({ now: () => now });
  const redirectUri = 'http://127.0.0.1:4998/callback';
  const app = await createRestAPIClient({ url: sim.url }).v1.apps.create({
    clientName: 'Herald',
    redirectUris: [redirectUri],
    scopes: 'read write',
  });
  const auth = new URL(sim.authorizeUrl);
  auth.search = new URLSearchParams({
    response_type: 'code',
    client_id: app.clientId!,
    redirect_uri: redirectUri,
    scope: 'read write',
  }).toString();
  const code = new URL((await fetch(auth, { redirect: 'manual' })).headers.get('location')!).searchParams.get('code')!;
  const token = await createOAuthAPIClient({ url: sim.url }).token.create({
    grantType: 'authorization_code',
    clientId: app.clientId!,
    clientSecret: app.clientSecret!,
    redirectUri,
    code,
  });
  client = createRestAPIClient({ url: sim.url, accessToken: token.accessToken });
});
afterAll(() => sim.close());

const status422 = async (p: Promise<unknown>) => {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(MastoHttpError);
  expect((e as MastoHttpError).statusCode).toBe(422);
  return (e as MastoHttpError).message;
};

describe('Mastodon simulator: scheduled statuses', () => {
  it(
    'creates a ScheduledStatus {id, scheduled_at, params}, lists ' + 'and fetches it, and publishes it at its time',
    async () => {
      const s = await client.v1.statuses.create({
        status: 'later, on its own',
        scheduledAt: at(30 * MIN),
        language: 'en',
      });
      expect(s.scheduledAt).toBe(at(30 * MIN));
      expect(s.params).toMatchObject({ text: 'later, on its own', language: 'en', visibility: 'public' });
      expect(sim.statusesBy('herald').some((x) => x.text === 'later, on its own')).toBe(false);
      expect((await client.v1.scheduledStatuses.$select(s.id).fetch()).id).toBe(s.id);
      expect((await client.v1.scheduledStatuses.list()).map((x) => x.id)).toContain(s.id);

      now += 30 * MIN;
      // Any request lets the instance catch up; the fetch of the ScheduledStatus then 404s.
      const gone = await client.v1.scheduledStatuses
        .$select(s.id)
        .fetch()
        .then(
          () => 200,
          (e: MastoHttpError) => e.statusCode,
        );
      expect(gone).toBe(404);
      const made = sim.statusesBy('herald').filter((x) => x.text === 'later, on its own');
      expect(made).toHaveLength(1);
      expect(made[0].createdAt).toBe(at(0));
      expect((await client.v1.statuses.$select(made[0].id).fetch()).url).toBe(`${sim.url}/@herald/${made[0].id}`);
    },
  );

  it('refuses a time less than 5 minutes ahead with 422; a time already past posts at once', async () => {
    expect(await status422(client.v1.statuses.create({ status: 'too soon', scheduledAt: at(4 * MIN) }))).toMatch(
      /scheduled date must be in the future/,
    );
    const past = (await client.v1.statuses.create({
      status: 'already due',
      scheduledAt: at(-MIN),
    } as never)) as unknown as mastodon.v1.Status;
    expect(past.url).toContain('/@herald/');
  });

  it('moves (PUT scheduled_at) and deletes', async () => {
    const s = await client.v1.statuses.create({ status: 'to move', scheduledAt: at(20 * MIN) });
    const moved = await client.v1.scheduledStatuses.$select(s.id).update({ scheduledAt: at(90 * MIN) });
    expect(moved.scheduledAt).toBe(at(90 * MIN));
    expect(await status422(client.v1.scheduledStatuses.$select(s.id).update({ scheduledAt: at(2 * MIN) }))).toMatch(
      /future/,
    );
    now += 30 * MIN;
    expect(sim.publishDue()).toBe(0);
    await client.v1.scheduledStatuses.$select(s.id).remove();
    now += 90 * MIN;
    expect(sim.publishDue()).toBe(0);
    expect(sim.statusesBy('herald').some((x) => x.text === 'to move')).toBe(false);
    const again = await client.v1.scheduledStatuses
      .$select(s.id)
      .remove()
      .then(
        () => 200,
        (e: MastoHttpError) => e.statusCode,
      );
    expect(again).toBe(404);
  });

  it('the same Idempotency-Key returns the same ScheduledStatus', async () => {
    const meta = { requestInit: { headers: { 'Idempotency-Key': 'sched-once' } } };
    const a = await client.v1.statuses.create({ status: 'once, scheduled', scheduledAt: at(60 * MIN) }, meta);
    const b = await client.v1.statuses.create({ status: 'once, scheduled', scheduledAt: at(60 * MIN) }, meta);
    expect(b.id).toBe(a.id);
    expect([...sim.state.scheduled.values()].filter((s) => s.params.status === 'once, scheduled')).toHaveLength(1);
  });
});
