import type { Deps } from './deps.js';
import type { Sqlite } from '../db/connection.js';
import { createRepos } from '../db/repos/index.js';
import { AccountsService } from './accounts/accounts.service.js';
import { CredentialsService } from './accounts/credentials.service.js';
import { ConnectionsService } from './connections/connections.service.js';
import { AuthService } from './auth/auth.service.js';
import { SignInService } from './auth/signin.service.js';
import { CreditsService } from './credits/credits.service.js';
import { DraftFilesService } from './drafts/draft-files.service.js';
import { DraftsService } from './drafts/drafts.service.js';
import { IdempotencyService } from './idempotency/idempotency.service.js';
import { EventsService } from './events/events.service.js';
import { MediaService } from './media/media.service.js';
import { LinkCardsService } from './link-cards/link-cards.service.js';
import { PublishService } from './publishing/publish.service.js';
import { DraftStatusWriter } from './publishing/draft-status-writer.js';
import { QuotaGate } from './publishing/quota-gate.js';
import { QuotaHolds } from './publishing/quota-hold.js';
import { ScheduledRunner, type ScheduledRunnerOptions } from './publishing/scheduled-runner.js';
import { StorageWaits } from './publishing/storage-waits.js';
import { XSpend } from './publishing/x-spend.js';
import { ScheduleService } from './scheduling/schedule.service.js';
import { QueueService } from './scheduling/queue.service.js';
import { HandOffService } from './scheduling/hand-off.service.js';
import { SettingsService } from './settings/settings.service.js';
import { SocialSetsService } from './social-sets/social-sets.service.js';
import { TemplatesService } from './templates/templates.service.js';
import { UsersService } from './users/users.service.js';
import { NetworkAppsService } from './networks/network-apps.service.js';
import { MediaRelayService } from './media-relay/media-relay.service.js';
import { SecretSetupService } from './setup/secret-setup.service.js';
import { WizardService } from './setup/wizard.service.js';
import { PublicationsService } from './after-publish/publications.service.js';
import { MetricsCollector } from './after-publish/metrics-collector.js';
import { AnalyticsService } from './after-publish/analytics.service.js';
import { CredentialCheckService } from './accounts/credential-check.service.js';
import { AlertsService } from './alerts/alerts.service.js';
import { AlertDispatcher, type DispatcherOptions } from './alerts/alert-dispatcher.js';
import { UpkeepService } from './alerts/upkeep.js';
import { EvergreenService } from './scheduling/evergreen.service.js';

/**
 * Every domain service, built once per server from the same dependencies. The repositories are
 * built here, once, and each service gets the ones it uses as constructor arguments: what a
 * service may touch shows in its signature, and Deps stays the outside world (clock, ids, config).
 */
export function createServices(deps: Deps, sqlite: Sqlite) {
  const repos = createRepos(sqlite, deps);
  const users = new UsersService(deps, repos.users, repos.tx);
  // The event stream: the services that change posts and credits record through it.
  const events = new EventsService(deps, repos.events, repos.tx);
  // The user's zone is read through settings (new sets start in it).
  const settings = new SettingsService(deps, users, repos.settings, (from, to) => credits.grantChanged(from, to));
  const socialSets = new SocialSetsService(deps, repos, settings);
  const networkApps = new NetworkAppsService(deps, users, repos.settings);
  const mediaRelay = new MediaRelayService(deps, users);
  const credentials = new CredentialsService(deps, repos.accounts, networkApps, events, repos.tx);
  const credits = new CreditsService(deps, repos, events);
  const linkCards = new LinkCardsService(deps);
  // The publishing core's parts, each given to those that use it (none reaches another's through a facade).
  const xSpend = new XSpend(deps, repos);
  const storageWaits = new StorageWaits();
  const draftStatus = new DraftStatusWriter(deps.clock, repos);
  const publishing = new PublishService(deps, repos, {
    credentials,
    credits,
    sets: socialSets,
    stream: events,
    xSpend,
    storageWaits,
    draftStatus,
    cards: linkCards,
    relay: mediaRelay,
  });
  const quotaHolds = new QuotaHolds(deps, new QuotaGate(deps, repos, credentials), repos.outbox);
  const templates = new TemplatesService(deps, repos.templates);
  const auth = new AuthService(deps, users, repos);
  const connections = new ConnectionsService(deps, credentials, socialSets, repos, networkApps);
  const accounts = new AccountsService(deps, repos.accounts);
  const drafts = new DraftsService(deps, templates, repos, () => mediaRelay.ready());
  const metricsCollector = new MetricsCollector(deps, repos, credentials);
  const scheduling = new ScheduleService(deps, repos, publishing, events, credits, xSpend);
  const alerts = new AlertsService(deps, repos.alerts, events);
  const evergreen = new EvergreenService(deps, repos, socialSets, scheduling);
  scheduling.onSlotsReleased = (_user, draftId, slots) => evergreen.released(draftId, slots);
  return {
    deps,
    events,
    users,
    auth,
    signIn: new SignInService(deps, users, auth, connections, repos.accounts, networkApps),
    networkApps,
    mediaRelay,
    socialSets,
    credentials,
    connections,
    accounts,
    templates,
    drafts,
    draftFiles: new DraftFilesService(deps, drafts, accounts, repos.tx, scheduling, repos.metrics),
    credits,
    media: new MediaService(deps, repos.media),
    linkCards,
    publishing,
    publications: new PublicationsService(deps, repos, credentials),
    /** Reads published posts' counts (woken by jobs/metrics.job.ts and by a refresh). */
    metricsCollector,
    analytics: new AnalyticsService(deps, repos, () => {
      metricsCollector.run().catch((err: unknown) => deps.log.warn(`Metrics reads failed: ${(err as Error).message}`));
    }),
    xSpend,
    /** The publishing side of scheduled posts, for the scheduler (jobs/scheduler.ts), with its retry waits. */
    scheduledRunner: (opts: ScheduledRunnerOptions = {}) =>
      new ScheduledRunner(
        deps,
        {
          repos,
          publishing,
          quotaHolds,
          storageWaits,
          stream: events,
          draftStatus,
        },
        opts,
      ),
    scheduling,
    alerts,
    /** Sends alerts from the event stream (started by the server, docs/decisions.md Alerts). */
    upkeep: new UpkeepService(deps, { ...repos, events, credits, xSpend }),
    alertDispatcher: (opts: DispatcherOptions = {}) => new AlertDispatcher(deps, repos.alerts, events, alerts, opts),
    evergreen,
    queue: new QueueService(
      deps,
      repos,
      socialSets,
      scheduling,
      (setId) => evergreen.fillsOf(setId),
      () => evergreen.fill(),
      (setId, moves) => evergreen.moved(setId, moves),
    ),
    handOff: new HandOffService(deps, repos, credentials),
    settings,
    idempotency: new IdempotencyService(deps, repos.idempotency),
    credentialCheck: new CredentialCheckService(deps, repos.accounts, credentials),
    wizard: new WizardService(deps, users, repos.settings),
    secretSetup: new SecretSetupService(deps, users, repos.settings, async () => {
      await networkApps.load();
      await mediaRelay.load();
      scheduling.secretsUnlocked();
    }),
  };
}

export type Services = ReturnType<typeof createServices>;
