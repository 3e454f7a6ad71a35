/**
 * What to do on each network's developer portal (docs/decisions.md §19): the
 * text of Settings → Networks, one guide per network. The networks' names come from the one
 * list (text/networks.ts) and the scopes Herald asks for from the networks endpoint.
 */
import { NETWORK_LABELS } from '../../../../text/networks';

export type AppPlatform = 'microblog' | 'threadblog' | 'problog' | 'identity';

export interface Guide {
  id: AppPlatform | 'skyblog' | 'fedblog';
  name: string;
  portal?: { label: string; url: string };
  steps: string[];
  idLabel?: string;
  secretLabel?: string;
  /** A note about the redirect URI (HTTPS only, loopback refused). */
  redirectNote?: string;
}

export const GUIDES: Guide[] = [
  {
    id: 'microblog',
    name: NETWORK_LABELS.microblog,
    portal: { label: 'developer.x.com → Projects & Apps', url: 'https://developer.x.com/en/portal/projects-and-apps' },
    steps: [
      'Create a project and an app, then open "User authentication settings" → Set up.',
      'App permissions: "Read and write". Type of App: "Web App, Automated App or Bot" (a confidential client).',
      'Callback URI / Redirect URL: paste the redirect URI below (add the sign-in one too if you sign in to ' +
        'Herald with X).',
      'Save, then copy the OAuth 2.0 Client ID and Client Secret from "Keys and tokens".',
    ],
    idLabel: 'OAuth 2.0 Client ID',
    secretLabel: 'OAuth 2.0 Client Secret',
  },
  {
    id: 'threadblog',
    name: NETWORK_LABELS.threadblog,
    portal: { label: 'developers.facebook.com → My Apps', url: 'https://developers.facebook.com/apps/' },
    steps: [
      'Create an app with the "Access the Threads API" use case.',
      "In the use case's settings, add threads_basic, threads_content_publish, threads_manage_replies, " +
        'threads_manage_insights (post metrics) and threads_delete (deleting posts from Herald).',
      'Threads only accepts HTTPS redirect URIs, which Herald on this computer cannot offer: put an HTTPS ' +
        'address you own (any page; nothing needs to run there) under "Redirect Callback URLs", and enter the ' +
        'same address below. When you connect, your browser ends on that address: copy it from the address bar ' +
        'and paste it into Herald.',
      'Copy the Threads App ID and Threads App Secret (App settings → Basic of the Threads use case, not the ' +
        'Facebook ones).',
    ],
    idLabel: 'Threads App ID',
    secretLabel: 'Threads App Secret',
    redirectNote: 'Threads needs an HTTPS redirect URI of your own (see step 3).',
  },
  {
    id: 'problog',
    name: NETWORK_LABELS.problog,
    portal: { label: 'linkedin.com/developers → Create app', url: 'https://www.linkedin.com/developers/apps' },
    steps: [
      'Create an app (it needs a LinkedIn page; any page you manage will do).',
      'Products: add "Sign In with LinkedIn using OpenID Connect" and "Share on LinkedIn".',
      'Auth tab → "Authorized redirect URLs for your app": paste the redirect URI below. If LinkedIn refuses ' +
        'a loopback address, use an HTTPS address you own instead, enter it below, and paste the address you ' +
        'are sent to after signing in.',
      'Copy the Client ID and the Primary Client Secret from the Auth tab.',
    ],
    idLabel: 'Client ID',
    secretLabel: 'Primary Client Secret',
    redirectNote: 'LinkedIn may refuse a loopback address: an own HTTPS address works with the pasted redirect.',
  },
  {
    id: 'identity',
    name: 'Sign-in provider (Google or OpenID Connect)',
    portal: {
      label: 'console.cloud.google.com → APIs & Services → Credentials',
      url: 'https://console.cloud.google.com/apis/credentials',
    },
    steps: [
      'Create an OAuth client ID of type "Web application" (the provider is set with HERALD_IDENTITY_ISSUER; ' +
        'Google by default).',
      'Authorized redirect URIs: paste the redirect URI below.',
      'Copy the client ID and client secret.',
    ],
    idLabel: 'Client ID',
    secretLabel: 'Client secret',
  },
  {
    id: 'fedblog',
    name: NETWORK_LABELS.fedblog,
    steps: [
      'Nothing to set up: Herald registers itself on each instance the first time you connect an account ' +
        'there (Accounts → Connect Mastodon).',
    ],
  },
  {
    id: 'skyblog',
    name: NETWORK_LABELS.skyblog,
    steps: [
      'Nothing to set up: Bluesky uses app passwords. On Bluesky, open Settings → Privacy and security → App ' +
        'passwords, create one, and use it on the Accounts page (never your main password).',
    ],
  },
];
