import type { Deps } from './deps.js';
import { createRepos } from '../db/repos/index.js';
import { AccountsService } from './accounts/accounts.service.js';
import { CredentialsService } from './accounts/credentials.service.js';
import { ConnectionsService } from './connections/connections.service.js';
import { AuthService } from './auth/auth.service.js';
import { SignInService } from './auth/signin.service.js';
import { CreditsService } from './credits/credits.service.js';
import { DraftsService } from './drafts/drafts.service.js';
import { MediaService } from './media/media.service.js';
import { PublishService } from './publishing/publish.service.js';
import { ScheduleService } from './scheduling/schedule.service.js';
import { SocialSetsService } from './social-sets/social-sets.service.js';
import { TemplatesService } from './templates/templates.service.js';
import { UsersService } from './users/users.service.js';

/** Every domain service, built once per server from the same dependencies. */
export function createServices(deps: Deps) {
  const repos = createRepos(deps.sqlite, deps.db, deps);
  const users = new UsersService(deps);
  const socialSets = new SocialSetsService(deps);
  const credentials = new CredentialsService(deps);
  const credits = new CreditsService(deps);
  const publishing = new PublishService(deps, repos, credentials, credits, socialSets);
  const templates = new TemplatesService(deps);
  const auth = new AuthService(deps, users);
  const connections = new ConnectionsService(deps, credentials, socialSets);
  return {
    deps,
    users,
    auth,
    signIn: new SignInService(deps, users, auth, connections),
    socialSets,
    credentials,
    connections,
    accounts: new AccountsService(deps),
    templates,
    drafts: new DraftsService(deps, templates),
    credits,
    media: new MediaService(deps),
    publishing,
    scheduling: new ScheduleService(deps, repos, publishing),
  };
}

export type Services = ReturnType<typeof createServices>;
