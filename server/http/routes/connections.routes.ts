import * as c from '../../contracts/connections.js';
import { pastedRedirectBody } from '../../contracts/networks.js';
import type { OAuthPlatform } from '../../domain/connections/connections.service.js';
import type { Services } from '../../domain/services.js';
import { defineRoute, type RouteDef } from '../route.js';
import { NETWORK_LABELS } from '../../../text/counting.js';
import { CLOSE_PAGE_CSP, closePage } from '../close-page.js';

const tag = 'Connecting accounts';

function callbackRoute(s: Services, platform: OAuthPlatform): RouteDef {
  return defineRoute({
    method: 'get',
    path: `/${platform}/callback`,
    tag,
    auth: false,
    summary: `Finish connecting a ${NETWORK_LABELS[platform]} account (the network redirects the browser here)`,
    description:
      "Answers JSON when the caller accepts JSON, else a small page in the app's style that says what " +
      'happened and closes its tab.',
    query: c.callbackQuery,
    response: c.callbackResponse,
    errors: [
      'INVALID_INPUT',
      'SECRET_STORE_UNAVAILABLE',
      'SECRET_STORE_LOCKED',
      'PLATFORM_ERROR',
      'OAUTH_NOT_CONFIGURED',
      'TOKEN_EXPIRED',
      'RATE_LIMITED',
    ],
    handler: async ({ query, req, res }) => {
      const wantsHtml = !req.accepts(['json', 'html']) || req.accepts(['json', 'html']) === 'html';
      try {
        const result = await s.connections.finish(platform, query);
        if (!wantsHtml) return { success: true, ...result };
        res.setHeader('Content-Security-Policy', CLOSE_PAGE_CSP);
        res
          .type('html')
          .send(closePage(NETWORK_LABELS[platform], true, `${result.message} Herald can now publish to this account.`));
        return undefined;
      } catch (err) {
        if (!wantsHtml) throw err;
        res.setHeader('Content-Security-Policy', CLOSE_PAGE_CSP);
        res
          .status(400)
          .type('html')
          .send(closePage(NETWORK_LABELS[platform], false, (err as Error).message));
        return undefined;
      }
    },
  });
}

export const connectionRoutes = (s: Services): RouteDef[] => [
  defineRoute({
    method: 'post',
    path: '/microblog/auth',
    tag,
    summary: 'Start connecting an X account (OAuth 2.0 + PKCE)',
    body: c.oauthConnectBody,
    response: c.oauthStartResponse,
    errors: [
      'INVALID_INPUT',
      'SECRET_STORE_UNAVAILABLE',
      'SECRET_STORE_LOCKED',
      'NOT_FOUND',
      'OAUTH_NOT_CONFIGURED',
      'PLATFORM_ERROR',
    ],
    handler: async ({ auth, body }) => {
      const { authUrl, sessionId } = await s.connections.start(auth.user.id, 'microblog', body);
      return { success: true, authUrl, sessionId };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/fedblog/auth',
    tag,
    summary: 'Start connecting a Mastodon account on the given instance',
    description: "Herald registers itself on the instance once (cached), then returns the instance's authorize URL.",
    body: c.fedblogConnectBody,
    response: c.oauthStartResponse,
    errors: ['INVALID_INPUT', 'SECRET_STORE_UNAVAILABLE', 'SECRET_STORE_LOCKED', 'NOT_FOUND', 'PLATFORM_ERROR'],
    handler: async ({ auth, body }) => {
      const { authUrl, sessionId } = await s.connections.start(auth.user.id, 'fedblog', body);
      return { success: true, authUrl, sessionId };
    },
  }),
  ...(['threadblog', 'problog'] as const).map((platform) =>
    defineRoute({
      method: 'post',
      path: `/${platform}/auth`,
      tag,
      summary: `Start connecting a ${NETWORK_LABELS[platform]} account (OAuth)`,
      body: c.oauthStartBody,
      response: c.oauthStartResponse,
      errors: [
        'INVALID_INPUT',
        'SECRET_STORE_UNAVAILABLE',
        'SECRET_STORE_LOCKED',
        'NOT_FOUND',
        'OAUTH_NOT_CONFIGURED',
        'PLATFORM_ERROR',
      ],
      handler: async ({ auth, body }) => {
        const { authUrl, sessionId } = await s.connections.start(auth.user.id, platform, body);
        return { success: true, authUrl, sessionId };
      },
    }),
  ),
  defineRoute({
    method: 'post',
    path: '/skyblog/auth',
    tag,
    summary: 'Connect a Bluesky account with an app password',
    body: c.skyblogConnectBody,
    response: c.skyblogConnectResponse,
    errors: [
      'INVALID_INPUT',
      'SECRET_STORE_UNAVAILABLE',
      'SECRET_STORE_LOCKED',
      'NOT_FOUND',
      'PLATFORM_ERROR',
      'TOKEN_EXPIRED',
      'RATE_LIMITED',
    ],
    handler: async ({ auth, body }) => ({ success: true, ...(await s.connections.connectSkyblog(auth.user.id, body)) }),
  }),
  ...(['microblog', 'fedblog', 'threadblog', 'problog'] as const).map((p) => callbackRoute(s, p)),
  defineRoute({
    method: 'get',
    path: '/connections/:sessionId',
    tag,
    summary:
      "How a connection flow started with POST /{platform}/auth ended (for the app that opened the network's page)",
    description:
      'waiting until the network sends the browser back; then connected (with `message`, `alreadyConnected`, ' +
      '`reconnected`) or failed (with the error the callback answered). Known for 15 minutes, in this ' +
      'process only.',
    params: c.sessionParam,
    response: c.connectStatusResponse,
    errors: ['NOT_FOUND'],
    handler: ({ auth, params }) => ({ success: true, ...s.connections.outcomes.of(auth.user.id, params.sessionId) }),
  }),
  ...(['microblog', 'threadblog', 'problog'] as const).map((platform) =>
    defineRoute({
      method: 'post',
      path: `/${platform}/callback`,
      tag,
      summary:
        `Finish connecting a ${NETWORK_LABELS[platform]} account from the pasted address the network sent the ` +
        `browser to`,
      description:
        'For networks that refuse a loopback redirect URI: the same checks as the GET callback (state once, ' +
        "PKCE where the network has it), and the flow must be the caller's.",
      body: pastedRedirectBody,
      response: c.callbackResponse,
      errors: [
        'INVALID_INPUT',
        'SECRET_STORE_UNAVAILABLE',
        'SECRET_STORE_LOCKED',
        'PLATFORM_ERROR',
        'OAUTH_NOT_CONFIGURED',
        'TOKEN_EXPIRED',
        'RATE_LIMITED',
      ],
      handler: async ({ auth, body }) => ({
        success: true,
        ...(await s.connections.finishPasted(auth.user.id, platform, body.redirectUrl)),
      }),
    }),
  ),
];
