import type { Platform } from '../../text/networks.js';

/** The real networks' endpoints; each can be overridden (tests point them at simulators). */
export const NETWORK_DEFAULTS: Record<Platform, { api: string; authorize: string; token: string }> = {
  microblog: {
    api: 'https://api.x.com',
    authorize: 'https://x.com/i/oauth2/authorize',
    token: 'https://api.x.com/2/oauth2/token',
  },
  skyblog: { api: 'https://bsky.social', authorize: '', token: '' },
  fedblog: { api: '', authorize: '', token: '' },
  threadblog: {
    api: 'https://graph.threads.net',
    authorize: 'https://threads.net/oauth/authorize',
    token: 'https://graph.threads.net/oauth/access_token',
  },
  problog: {
    api: 'https://api.linkedin.com',
    authorize: 'https://www.linkedin.com/oauth/v2/authorization',
    token: 'https://www.linkedin.com/oauth/v2/accessToken',
  },
};
