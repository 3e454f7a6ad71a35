/**
 * The client library against a real server: every HeraldClient method is called and every
 * operation in /openapi.json must be reached by one of them (a route without a method fails, so
 * does a method without a call here); what a method returns parses with the contract of the
 * route it reached. Errors, retries and static checks: client-library.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { HeraldClient, HeraldError, type OAuthNetwork } from '../../client/index.js';
import * as publishing from '../../server/contracts/publishing.js';
import { allRoutes } from '../../server/http/app.js';
import type { RouteDef } from '../../server/http/route.js';
import { calls, key, recording, t, useClientLibraryServer } from '../helpers/client-library-server.js';
import { addAccount, userIdOf } from '../helpers/drafts.js';
import { pngBytes } from '../helpers/png.js';
import { closedPort, OWNER } from '../helpers/server.js';

useClientLibraryServer();

type Method = Exclude<keyof HeraldClient, 'request' | 'baseUrl' | 'apiKey' | 'mediaUrl'>;

describe('HeraldClient covers the API', () => {
  it(
    'every method reaches its route; every route in /openapi.json ' + 'is reached; answers parse with the contracts',
    async () => {
      const c = new HeraldClient({ baseUrl: t.base, apiKey: key, fetch: recording() });
      const owner = userIdOf(t, OWNER.email);
      const sky = addAccount(t, owner, 'skyblog');
      const fed = addAccount(t, owner, 'fedblog').accountId;
      const x = addAccount(t, owner, 'microblog').accountId;
      const threads = addAccount(t, owner, 'threadblog').accountId;
      const li = addAccount(t, owner, 'problog').accountId;
      const doomed = addAccount(t, owner, 'skyblog').accountId;
      const s: Record<string, any> = {};
      const settle = (p: Promise<unknown>) =>
        p.then(
          (v) => v,
          (e) => {
            if (!(e instanceof HeraldError)) throw e;
            return e;
          },
        );

      // One entry per client method (tsc insists on every key; the check below insists at run time).
      const exercise: Record<Method, () => Promise<unknown>> = {
        login: () => c.login({ email: OWNER.email, password: OWNER.password }),
        createApiKey: async () => {
          s.key = await c.createApiKey({ name: 'second' });
          return s.key;
        },
        listApiKeys: () => c.listApiKeys(),
        deleteApiKey: () => c.deleteApiKey(s.key.apiKey.id),
        // Signs out a key of its own: the test's key must keep working for the methods after it.
        logout: async () =>
          new HeraldClient({
            baseUrl: t.base,
            apiKey: (await c.login({ email: OWNER.email, password: OWNER.password })).apiKey.key,
            fetch: recording(),
          }).logout(),
        identitySignInUrl: () => settle(c.identitySignInUrl({ redirectUri: 'http://127.0.0.1:9/callback' })),
        identitySignInCallback: () => settle(c.identitySignInCallback({ code: 'code', state: 'not-a-state' })),
        microblogSignInUrl: () => settle(c.microblogSignInUrl({ redirectUri: 'http://127.0.0.1:9/callback' })),
        microblogSignInCallback: () => settle(c.microblogSignInCallback({ code: 'code', state: 'not-a-state' })),
        needsSetup: () => c.needsSetup(),
        setup: () => settle(c.setup({ email: 'late@example.test', password: 'long enough' })),
        me: () => c.me(),
        listAccounts: () => c.listAccounts(),
        getAccount: () => c.getAccount(sky.accountId),
        deleteAccount: () => c.deleteAccount(doomed),
        listSocialSets: () => c.listSocialSets(),
        createSocialSet: async () => {
          s.set = await c.createSocialSet({ name: 'Client set' });
          return s.set;
        },
        updateSocialSet: () => c.updateSocialSet({ id: s.set.socialSet.id, name: 'Renamed set' }),
        deleteSocialSet: () => c.deleteSocialSet(s.set.socialSet.id),
        connectMicroblog: () => settle(c.connectMicroblog()),
        connectFedblog: async () => settle(c.connectFedblog({ instanceUrl: `http://127.0.0.1:${await closedPort()}` })),
        connectThreadblog: () => settle(c.connectThreadblog()),
        connectProblog: () => settle(c.connectProblog()),
        connectionStatus: () => settle(c.connectionStatus('no-such-session')),
        connectSkyblog: async () =>
          settle(
            c.connectSkyblog({
              identifier: 'someone.test',
              appPassword: 'aaaa-bbbb-cccc-dddd',
              service: `http://127.0.0.1:${await closedPort()}`,
            }),
          ),
        finishConnect: () =>
          Promise.all(
            (['microblog', 'fedblog', 'threadblog', 'problog'] as OAuthNetwork[]).map((n) =>
              settle(c.finishConnect(n, { code: 'code', state: 'not-a-state' })),
            ),
          ),
        createTemplate: async () => {
          s.tpl = await c.createTemplate({ name: 'Client template', headContentPlain: 'Head' });
          return s.tpl;
        },
        listTemplates: () => c.listTemplates(),
        getTemplate: () => c.getTemplate(s.tpl.template.uuid),
        updateTemplate: () => c.updateTemplate(s.tpl.template.uuid, { name: 'Renamed template' }),
        deleteTemplate: () => c.deleteTemplate(s.tpl.template.uuid),
        createDraft: async () => {
          s.draft = await c.createDraft({
            title: 'From the client',
            tweets: [
              { content: 'one', position: 0 },
              { content: 'two', position: 1 },
            ],
            selectedAccountIds: [sky.accountId],
          });
          return s.draft;
        },
        createDrafts: async () => {
          s.batch = await c.createDrafts({
            drafts: [
              { title: 'b1', tweets: [{ content: 'b1' }] },
              { title: 'b2', tweets: [{ content: 'b2' }] },
            ],
          });
          return s.batch;
        },
        listDrafts: () => c.listDrafts({ limit: 2 }),
        getDraft: () => c.getDraft(s.draft.draft.id),
        // A closed loopback port: the page cannot be read, so the card is null (never an error).
        linkPreview: () => c.linkPreview('http://127.0.0.1:9/nothing'),
        linkPreviewImage: () => settle(c.linkPreviewImage('http://127.0.0.1:9/nothing')),
        updateDraft: () => c.updateDraft(s.draft.draft.id, { title: 'Renamed draft' }),
        getDraftPlatforms: () => c.getDraftPlatforms(s.draft.draft.id),
        setDraftPlatforms: () =>
          c.setDraftPlatforms(s.draft.draft.id, { platforms: [{ platform: 'skyblog', content: 'Bluesky words' }] }),
        draftNetworks: () => c.draftNetworks(s.draft.draft.id, [sky.accountId]),
        splitText: () => c.splitText({ text: 'word '.repeat(200), platform: 'skyblog' }),
        exportDraft: async () => {
          s.exported = await c.exportDraft(s.draft.draft.id, { format: 'md' });
          expect(s.exported).toMatch(/^---\n/);
          return s.exported;
        },
        importDrafts: async () => {
          const r = await c.importDrafts(s.exported, 'md');
          expect(r.drafts[0].tweets.length).toBeGreaterThan(0);
          return r;
        },
        importDraftsCsv: async () => {
          const r = await c.importDraftsCsv('text\nFrom CSV 😀\n', { dryRun: true });
          expect(r).toMatchObject({ dryRun: true, imported: 1, errors: [] });
          return r;
        },
        deleteDraft: () => c.deleteDraft(s.batch.drafts[1].id),
        uploadMedia: async () => {
          s.media = await c.uploadMedia([
            { name: 'dot.png', data: new Blob([new Uint8Array(pngBytes(4, 4, [200, 10, 10]))], { type: 'image/png' }) },
          ]);
          return s.media;
        },
        setMediaAltText: () => c.setMediaAltText(s.media.data.uploads[0].mediaId, 'A red square'),
        updateMedia: () => c.updateMedia(s.media.data.uploads[0].mediaId, { title: 'Red' }),
        setMediaCaptions: () =>
          c.setMediaCaptions(s.media.data.uploads[0].mediaId, [
            { lang: 'en', vtt: 'WEBVTT\n\n00:00:00.000 --> 00:00:01.000\nRed\n' },
          ]),
        getMedia: async () => {
          const blob = await c.getMedia(s.media.data.uploads[0].mediaId);
          expect(Buffer.from(await blob.arrayBuffer())).toEqual(pngBytes(4, 4, [200, 10, 10]));
          expect(c.mediaUrl(s.media.data.uploads[0].mediaId)).toBe(s.media.data.uploads[0].url);
          return blob;
        },
        deleteMedia: () => c.deleteMedia(s.media.data.uploads[0].mediaId),
        credits: () => c.credits(),
        getCredits: () => c.getCredits(),
        adjustCredits: async () => {
          const r = await c.adjustCredits({ amount: 5, note: 'from the client' });
          expect(r.balance).toBeGreaterThan(0);
          return r;
        },
        creditsUsage: () => c.creditsUsage({ page: 1, limit: 5, trans_type: 'grant' }),
        publish: async () => {
          s.published = await c.publish(s.draft.draft.id);
          return s.published;
        },
        publishAsync: async () => {
          s.job = await c.publishAsync(s.batch.drafts[0].id, { accountIds: [sky.accountId] });
          return s.job;
        },
        publishProgress: () => c.publishProgress({ jobId: s.job.jobId }),
        publishDryRun: () => c.publishDryRun(s.draft.draft.id, { force: true }),
        scheduleDryRun: () => c.scheduleDryRun({ draftId: s.batch.drafts[0].id, scheduledFor: '2026-12-01T09:00:00Z' }),
        publishMultiPlatform: () =>
          c.publishMultiPlatform({
            draftId: s.batch.drafts[0].id,
            targetAccounts: [{ accountId: sky.accountId, platform: 'skyblog' }],
            force: true,
          }),
        quote: () => settle(c.quote({ content: 'Quoting', quoteTweetId: '1234567890', accountId: x })),
        publishSkyblog: () => settle(c.publishSkyblog({ accountUuid: sky.accountId, type: 'single', text: 'Hello' })),
        publishFedblog: () => settle(c.publishFedblog({ accountUuid: fed, type: 'thread', texts: ['a', 'b'] })),
        publishThreadblog: () => settle(c.publishThreadblog({ accountId: threads, text: 'Hello' })),
        publishProblog: () => settle(c.publishProblog({ accountId: li, text: 'Hello' })),
        quoteDryRun: () => c.quoteDryRun({ content: 'Quoting, dry', quoteTweetId: '1234567890', accountId: x }),
        publishSkyblogDryRun: () =>
          c.publishSkyblogDryRun({ accountUuid: sky.accountId, type: 'single', text: 'Hello, dry' }),
        publishFedblogDryRun: () =>
          c.publishFedblogDryRun({ accountUuid: fed, type: 'thread', texts: ['dry a', 'dry b'] }),
        publishThreadblogDryRun: () => c.publishThreadblogDryRun({ accountId: threads, text: 'Hello, dry' }),
        publishProblogDryRun: () => c.publishProblogDryRun({ accountId: li, draftId: s.draft.draft.id }),
        publishHistory: () => c.publishHistory({ limit: 10, status: 'failed' }),
        publications: () => c.publications({ limit: 10 }),
        analyticsPosts: () => c.analyticsPosts({ platform: 'fedblog' }),
        analyticsCsv: () => c.analyticsCsv({ history: 'true' }),
        analyticsPost: () => settle(c.analyticsPost('no-such-publication')),
        refreshAnalytics: () => c.refreshAnalytics({ publicationIds: ['no-such-publication'] }),
        deletePublication: () => settle(c.deletePublication('no-such-publication')),
        editPublication: () => settle(c.editPublication('no-such-publication', { text: 'new words' })),
        resolveReview: () =>
          settle(c.resolveReview({ publicationId: 'no-such-publication', outcome: 'not_published' })),
        schedule: async () => {
          s.sched = await c.schedule({
            draftId: s.batch.drafts[0].id,
            scheduledFor: '2026-12-01T09:00:00Z',
            applyJitter: false,
          });
          return s.sched;
        },
        listSchedules: () => c.listSchedules(),
        cancelSchedule: () => c.cancelSchedule(s.batch.drafts[0].id),
        setSlots: async () => {
          s.qset = (
            await c.createSocialSet({ name: 'Queue set', accountIds: [sky.accountId], timeZone: 'Europe/Berlin' })
          ).socialSet.id;
          return c.setSlots(s.qset, {
            slots: [
              { day: 1, time: '09:00' },
              { day: 3, time: '17:30' },
            ],
          });
        },
        getSlots: () => c.getSlots(s.qset),
        addToQueue: () => c.addToQueue({ draftId: s.batch.drafts[0].id, socialSetId: s.qset }),
        listQueue: async () => {
          s.queue = await c.listQueue({ socialSetId: s.qset, count: 3 });
          return s.queue;
        },
        moveInQueue: () =>
          c.moveInQueue({ draftId: s.batch.drafts[0].id, toSlot: s.queue.items[1].at, socialSetId: s.qset }),
        settings: () => c.settings(),
        updateSettings: () => c.updateSettings({ graceMinutes: 20 }),
        secretStore: () => c.secretStore(),
        // The test server runs on the file store: choosing it again changes nothing.
        chooseSecretStore: () => c.chooseSecretStore({ store: 'none' }),
        setWizardStep: () => c.setWizardStep({ step: null }),
        unlockSecretStore: () => settle(c.unlockSecretStore({ passphrase: 'not an encrypted store' })),
        backup: () => c.backup(),
        listNetworks: () => c.listNetworks(),
        setNetwork: () => c.setNetwork('problog', { clientId: 'li-client', clientSecret: 'li-client-secret' }),
        testNetwork: () => c.testNetwork('identity'),
        removeNetwork: () => c.removeNetwork('problog'),
        getMediaRelay: () => c.getMediaRelay(),
        setMediaRelay: () =>
          c.setMediaRelay({
            kind: 's3',
            endpoint: 'http://127.0.0.1:9',
            region: 'us-east-1',
            bucket: 'client-bucket',
            accessKeyId: 'client-id',
            secretAccessKey: 'client-secret',
          }),
        testMediaRelay: () => c.testMediaRelay(),
        removeMediaRelay: () => c.removeMediaRelay(),
        finishConnectPasted: () =>
          Promise.all(
            (['microblog', 'threadblog', 'problog'] as const).map((n) =>
              settle(c.finishConnectPasted(n, `https://example.test/${n}?code=c&state=not-a-state`)),
            ),
          ),
        addAlert: async () => {
          s.alert = await c.addAlert({ url: 'ntfy://127.0.0.1:9/herald', events: ['post.failed'] });
          return s.alert;
        },
        alerts: () => c.alerts(),
        testAlert: () => settle(c.testAlert(s.alert.alert.id)),
        deleteAlert: () => c.deleteAlert(s.alert.alert.id),
        setEvergreen: () => settle(c.setEvergreen(s.draft.draft.id, { enabled: true })),
        evergreen: () => settle(c.evergreen(s.draft.draft.id)),
        fillEvergreen: () => c.fillEvergreen(),
        clearEvergreenFill: () => settle(c.clearEvergreenFill('no-set', new Date().toISOString())),
        // The stream from the start: what the calls above did, as events (none parse as a JSON answer).
        events: async () => {
          const ac = new AbortController();
          const got: { id: number; type: string }[] = [];
          for await (const e of c.events({ lastEventId: 0, signal: ac.signal })) {
            got.push(e);
            if (got.length === 3) ac.abort();
          }
          expect(got.map((e) => e.id)).toEqual([...got.map((e) => e.id)].sort((a, b) => a - b));
          expect(got.some((e) => e.type === 'credits.changed')).toBe(true);
          return [];
        },
      };

      const methods = Object.getOwnPropertyNames(HeraldClient.prototype)
        .filter((m) => !['constructor', 'request', 'mediaUrl'].includes(m))
        .sort();
      expect(Object.keys(exercise).sort()).toEqual(methods);

      const routes = allRoutes(t.server.services);
      const routeOf = (method: string, p: string): RouteDef | undefined =>
        routes.find(
          (r) => r.method.toUpperCase() === method && new RegExp(`^${r.path.replace(/:[A-Za-z]+/g, '[^/]+')}$`).test(p),
        );
      for (const [name, fn] of Object.entries(exercise)) {
        const from = calls.length;
        const result = await fn();
        const made = calls.slice(from);
        expect(made.length, `${name} made no request`).toBeGreaterThan(0);
        for (const call of made) {
          const route = routeOf(call.method, call.path);
          expect(route, `${name}: ${call.method} ${call.path} is no route`).toBeDefined();
          expect(call.message, `${name}: ${call.method} ${call.path}`).not.toBe('No such endpoint');
          expect(call.status, `${name}: ${call.method} ${call.path} answered ${call.status} ${call.error}`).not.toBe(
            500,
          );
          // An error is one the route itself declares (so the request got past the guards to it).
          if (call.status >= 300)
            expect(route!.errors, `${name}: ${call.method} ${call.path} answered ${call.error}`).toContain(call.error);
        }
        // A value (not a settled error) is what the route's contract says it is.
        const values = (Array.isArray(result) ? result : [result]).filter(
          (v) => !(v instanceof HeraldError) && !(v instanceof Blob) && typeof v !== 'string',
        ); // a string is a file (export), checked where it is made
        for (const v of values) {
          const route = routeOf(made.at(-1)!.method, made.at(-1)!.path)!;
          // With async: true the publish routes answer 202 {jobId}, a shape their route does not declare.
          const schema =
            name === 'publishAsync'
              ? publishing.acceptedResponse
              : name.endsWith('DryRun')
                ? publishing.dryRunResponse
                : route.response;
          const parsed = schema?.safeParse(v);
          expect(parsed?.success, `${name}: ${JSON.stringify(parsed?.error?.issues)}`).toBe(true);
        }
      }
      expect(s.published).toMatchObject({ draftId: s.draft.draft.id, summary: { total: 1 } });

      // Every operation the server documents was reached by some method.
      const doc = (await t.call('GET', '/openapi.json')).body;
      const operations = Object.entries<Record<string, unknown>>(doc.paths).flatMap(([p, ops]) =>
        Object.keys(ops).map((m) => ({
          method: m.toUpperCase(),
          re: new RegExp(`^${p.replace(/\{[^}]+\}/g, '[^/]+')}$`),
          p,
        })),
      );
      expect(operations.length).toBeGreaterThanOrEqual(60);
      const missed = operations
        .filter((o) => !calls.some((cl) => cl.method === o.method && o.re.test(cl.path)))
        .map((o) => `${o.method} ${o.p}`);
      expect(missed, 'operations with no client method').toEqual([]);
    },
  );
});
