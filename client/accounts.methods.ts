/**
 * The account side of HeraldClient: who signs in and how, which accounts and networks are connected,
 * and the install's own settings. Types only from the contracts, so it stays browser-safe.
 */
import type * as accounts from '../server/contracts/accounts.js';
import type * as auth from '../server/contracts/auth.js';
import type * as connections from '../server/contracts/connections.js';
import type * as settings from '../server/contracts/settings.js';
import type * as setupContracts from '../server/contracts/setup.js';
import type * as networks from '../server/contracts/networks.js';
import type * as relay from '../server/contracts/media-relay.js';
import type * as signin from '../server/contracts/signin.js';
import type * as sets from '../server/contracts/social-sets.js';
import type * as users from '../server/contracts/users.js';
import {
  ClientCore,
  type In,
  type Out,
  type Message,
  type QueryOf,
  type Query,
  type WriteOptions,
  type OAuthNetwork,
} from './client-core.js';

/**
 * HeraldClient's methods for signing in, API keys, the user, accounts, social sets, connecting
 * accounts, the install and its settings (one area of the class; see herald-client.ts).
 */
export class AccountsMethods extends ClientCore {
  // Sign-in and keys
  login(body: In<typeof auth.loginBody>) {
    return this.request<Out<typeof auth.loginResponse>>('POST', '/auth/login', { body, auth: false });
  }
  listApiKeys() {
    return this.request<Out<typeof auth.apiKeyListResponse>>('GET', '/auth/api-keys');
  }
  createApiKey(body: In<typeof auth.createKeyBody>) {
    return this.request<Out<typeof auth.createKeyResponse>>('POST', '/auth/api-keys', { body });
  }
  /** Starts signing in with the OpenID Connect provider: send the person to `authUrl`. */
  identitySignInUrl(body: In<typeof signin.signInUrlBody>) {
    return this.request<Out<typeof signin.signInUrlResponse>>('POST', '/auth/oauth/identity/url', {
      body,
      auth: false,
    });
  }
  /** Finishes it with the `code` and `state` the provider sent back; answers with a new API key. */
  identitySignInCallback(body: In<typeof signin.signInCallbackBody>) {
    return this.request<Out<typeof signin.identityCallbackResponse>>('POST', '/auth/oauth/identity/callback', {
      body,
      auth: false,
    });
  }
  /** Starts signing in with an X account. */
  microblogSignInUrl(body: In<typeof signin.signInUrlBody>) {
    return this.request<Out<typeof signin.signInUrlResponse>>('POST', '/auth/oauth/microblog/url', {
      body,
      auth: false,
    });
  }
  microblogSignInCallback(body: In<typeof signin.signInCallbackBody>) {
    return this.request<Out<typeof signin.microblogCallbackResponse>>('POST', '/auth/oauth/microblog/callback', {
      body,
      auth: false,
    });
  }
  deleteApiKey(keyId: string) {
    return this.request<Message>('DELETE', `/auth/api-keys/${encodeURIComponent(keyId)}`);
  }
  /** Signs out: revokes this client's own key on the server (it answers 401 from then on). */
  logout() {
    return this.request<Message>('POST', '/auth/logout');
  }

  // User, accounts, sets
  me() {
    return this.request<Out<typeof users.meResponse>>('GET', '/me');
  }
  listAccounts() {
    return this.request<Out<typeof accounts.accountListResponse>>('GET', '/accounts');
  }
  getAccount(id: string) {
    return this.request<Out<typeof accounts.accountResponse>>('GET', `/accounts/${encodeURIComponent(id)}`);
  }
  deleteAccount(id: string) {
    return this.request<Message>('DELETE', `/accounts/${encodeURIComponent(id)}`);
  }
  listSocialSets() {
    return this.request<Out<typeof sets.setListResponse>>('GET', '/social-sets');
  }
  createSocialSet(body: In<typeof sets.createSetBody>, write: WriteOptions = {}) {
    return this.request<Out<typeof sets.setResponse>>('POST', '/social-sets', { body, idempotent: write });
  }
  updateSocialSet(body: In<typeof sets.updateSetBody>) {
    return this.request<Out<typeof sets.setResponse>>('PUT', '/social-sets', { body });
  }
  deleteSocialSet(id: string) {
    return this.request<Message>('DELETE', '/social-sets', { body: { id } });
  }

  // Connecting accounts
  connectMicroblog(body: In<typeof connections.oauthConnectBody> = {}) {
    return this.request<Out<typeof connections.oauthStartResponse>>('POST', '/microblog/auth', { body });
  }
  connectFedblog(body: In<typeof connections.fedblogConnectBody>) {
    return this.request<Out<typeof connections.oauthStartResponse>>('POST', '/fedblog/auth', { body });
  }
  connectThreadblog(body: In<typeof connections.oauthConnectBody> = {}) {
    return this.request<Out<typeof connections.oauthStartResponse>>('POST', '/threadblog/auth', { body });
  }
  connectProblog(body: In<typeof connections.oauthConnectBody> = {}) {
    return this.request<Out<typeof connections.oauthStartResponse>>('POST', '/problog/auth', { body });
  }
  /** Where the network sends the browser back: finishes connecting an account from the callback's query. */
  finishConnect(network: OAuthNetwork, query: QueryOf<typeof connections.callbackQuery>) {
    return this.request<Out<typeof connections.callbackResponse>>('GET', `/${network}/callback`, {
      query: query as Query,
      auth: false,
    });
  }
  /** Finishes connecting from the address the network sent the browser to, pasted (networks that refuse loopback). */
  finishConnectPasted(network: In<typeof networks.pastedNetwork>, redirectUrl: string) {
    return this.request<Out<typeof connections.callbackResponse>>('POST', `/${network}/callback`, {
      body: { redirectUrl },
    });
  }
  /**
   * How a flow started with connect*() ended: waiting, connected (with what happened, in words) or failed (cancelled,
   * wrong app, ...).
   */
  connectionStatus(sessionId: string) {
    return this.request<Out<typeof connections.connectStatusResponse>>(
      'GET',
      `/connections/${encodeURIComponent(sessionId)}`,
    );
  }
  connectSkyblog(body: In<typeof connections.skyblogConnectBody>) {
    return this.request<Out<typeof connections.skyblogConnectResponse>>('POST', '/skyblog/auth', { body });
  }

  // Install
  /** Whether this install still needs its owner (first run). */
  needsSetup() {
    return this.request<Out<typeof settings.setupStatusResponse>>('GET', '/auth/setup', { auth: false });
  }
  /** Creates the owner of a new install and answers with its first API key (refused once a user exists). */
  setup(body: In<typeof settings.setupBody>) {
    return this.request<Out<typeof settings.setupResponse>>('POST', '/auth/setup', { body, auth: false });
  }
  // Network apps (Settings → Networks)
  listNetworks() {
    return this.request<Out<typeof networks.networksResponse>>('GET', '/networks');
  }
  setNetwork(platform: In<typeof networks.appPlatform>, body: In<typeof networks.setNetworkBody>) {
    return this.request<Out<typeof networks.networkResponse>>('PUT', `/networks/${platform}`, { body });
  }
  removeNetwork(platform: In<typeof networks.appPlatform>) {
    return this.request<Out<typeof networks.networkResponse>>('DELETE', `/networks/${platform}`);
  }
  testNetwork(platform: In<typeof networks.appPlatform>) {
    return this.request<Out<typeof networks.networkTestResponse>>('POST', `/networks/${platform}/test`);
  }
  // The media relay (Settings → Media relay): where Threads fetches uploaded media from
  getMediaRelay() {
    return this.request<Out<typeof relay.mediaRelayResponse>>('GET', '/media-relay');
  }
  setMediaRelay(body: In<typeof relay.setMediaRelayBody>) {
    return this.request<Out<typeof relay.mediaRelayResponse>>('PUT', '/media-relay', { body });
  }
  removeMediaRelay() {
    return this.request<Out<typeof relay.mediaRelayResponse>>('DELETE', '/media-relay');
  }
  /** Puts, fetches back and deletes a small file; `message` names a failed step. */
  testMediaRelay() {
    return this.request<Out<typeof relay.mediaRelayTestResponse>>('POST', '/media-relay/test');
  }

  /** Where secrets live and whether the OS keychain works here (owner only). */
  secretStore() {
    return this.request<Out<typeof setupContracts.secretSetupResponse>>('GET', '/setup/secrets');
  }
  /** Records the first-run wizard's step (null finishes it), so a reload resumes there. */
  setWizardStep(body: In<typeof settings.wizardBody>) {
    return this.request<Out<typeof settings.wizardResponse>>('PUT', '/setup/wizard', { body });
  }
  chooseSecretStore(body: In<typeof setupContracts.chooseSecretStoreBody>) {
    return this.request<Out<typeof setupContracts.chooseSecretStoreResponse>>('POST', '/setup/secrets', { body });
  }
  unlockSecretStore(body: In<typeof setupContracts.unlockSecretsBody>) {
    return this.request<Out<typeof setupContracts.unlockSecretsResponse>>('POST', '/setup/secrets/unlock', { body });
  }
  settings() {
    return this.request<Out<typeof settings.settingsResponse>>('GET', '/settings');
  }
  updateSettings(body: In<typeof settings.updateSettingsBody>) {
    return this.request<Out<typeof settings.updateSettingsResponse>>('PUT', '/settings', { body });
  }
  /** Online backup of the database into <data dir>/backups on the server's machine (owner only). */
  backup() {
    return this.request<Out<typeof settings.backupResponse>>('POST', '/backup');
  }
}
