/**
 * A real OpenID provider in-process (oidc-provider 9, docs/decisions.md §21): authorization
 * code with PKCE required, an auto-login interaction (the account named by `login`), auto
 * consent (asked of native clients each time). It listens behind a tiny front server that is the issuer's address: the
 * front counts token-endpoint requests (so tests can prove a refused state reached no token call) and can rewrite a
 * token answer (to hand Herald a genuine ID token minted for another client). `browse` plays the person's browser:
 * manual redirects and a cookie jar, stopping at the redirect URI, which is never fetched.
 */
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type Configuration } from 'oidc-provider';

export interface OidcAccount {
  email: string;
  email_verified: boolean;
  name?: string;
}

export interface OidcClientReg {
  client_id: string;
  client_secret: string;
  redirect_uris: string[];
  /** `native`: a loopback redirect URI matches on any port (RFC 8252 §7.3), as Google's desktop clients do. */
  application_type?: 'native' | 'web';
}

export interface OidcPeer {
  issuer: string;
  /** Accounts by id; the interaction logs in `login`. */
  accounts: Map<string, OidcAccount>;
  login: string;
  /** Seconds an ID token lives (read at every issue). */
  idTokenTtl: number;
  /** Token-endpoint requests, by the client that made them. */
  tokenRequests: string[];
  /** Every request the provider received (`METHOD /path`), discovery included. */
  requests: string[];
  /** Rewrites a successful token answer for `clientId`; undefined leaves answers alone. */
  rewriteToken?: (body: Record<string, unknown>, clientId: string) => Record<string, unknown>;
  close(): Promise<void>;
}

const listen = (server: http.Server) =>
  new Promise<number>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );

const close = (server: http.Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

function clientOfTokenRequest(headers: http.IncomingHttpHeaders, body: Buffer): string {
  const basic = /^Basic (.+)$/i.exec(headers.authorization ?? '');
  if (basic) return decodeURIComponent(Buffer.from(basic[1]!, 'base64').toString().split(':')[0]!);
  return new URLSearchParams(body.toString()).get('client_id') ?? '';
}

export async function startOidcPeer(
  clients: OidcClientReg[],
  opts: { conformIdTokenClaims?: boolean } = {},
): Promise<OidcPeer> {
  const front = http.createServer();
  const back = http.createServer();
  const frontPort = await listen(front);
  const backPort = await listen(back);
  const issuer = `http://127.0.0.1:${frontPort}`;

  const peer: OidcPeer = {
    issuer,
    accounts: new Map([['alice', { email: 'alice@example.test', email_verified: true, name: 'Alice' }]]),
    login: 'alice',
    idTokenTtl: 3600,
    tokenRequests: [],
    requests: [],
    close: async () => {
      await close(front);
      await close(back);
    },
  };

  const key = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' });
  const config: Configuration = {
    clients: clients.map((c) => ({ ...c, grant_types: ['authorization_code'], response_types: ['code'] })),
    pkce: { required: () => true },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    conformIdTokenClaims: opts.conformIdTokenClaims ?? false,
    features: { devInteractions: { enabled: false } },
    cookies: { keys: [crypto.randomBytes(16).toString('hex')] },
    jwks: { keys: [{ ...key, kid: 'test-key', alg: 'RS256', use: 'sig' } as never] },
    ttl: {
      AccessToken: 3600,
      AuthorizationCode: 60,
      Grant: 3600,
      Interaction: 600,
      Session: 3600,
      IdToken: () => peer.idTokenTtl,
    },
    findAccount: (_ctx, id) => {
      const account = peer.accounts.get(id);
      return account && { accountId: id, claims: async () => ({ sub: id, ...account }) };
    },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    loadExistingGrant: async (ctx) => {
      const session = ctx.oidc.session!;
      const clientId = ctx.oidc.client!.clientId;
      const existing = session.grantIdFor(clientId);
      if (existing) return ctx.oidc.provider.Grant.find(existing);
      const grant = new ctx.oidc.provider.Grant({ clientId, accountId: session.accountId! });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
  };
  const provider = new Provider(issuer, config);
  const handle = provider.callback();

  back.on('request', (req, res) => {
    if (req.url?.startsWith('/interaction/')) {
      void (async () => {
        const details = await provider.interactionDetails(req, res);
        if (details.prompt.name === 'login') {
          await provider.interactionFinished(
            req,
            res,
            { login: { accountId: peer.login } },
            { mergeWithLastSubmission: false },
          );
          return;
        }
        // A native client (loopback redirect) is asked to consent every time: the person agrees.
        if (details.prompt.name !== 'consent') throw new Error(`unexpected prompt ${details.prompt.name}`);
        const grant = details.grantId
          ? (await provider.Grant.find(details.grantId))!
          : new provider.Grant({ clientId: details.params.client_id as string, accountId: details.session!.accountId });
        grant.addOIDCScope('openid email profile');
        await provider.interactionFinished(
          req,
          res,
          { consent: { grantId: await grant.save() } },
          { mergeWithLastSubmission: true },
        );
      })().catch((err) => {
        res.statusCode = 500;
        res.end(String(err));
      });
      return;
    }
    handle(req, res);
  });

  front.on('request', (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const path = new URL(req.url ?? '/', issuer).pathname;
      peer.requests.push(`${req.method} ${path}`);
      const tokenClient =
        req.method === 'POST' && path === '/token' ? clientOfTokenRequest(req.headers, body) : undefined;
      if (tokenClient !== undefined) peer.tokenRequests.push(tokenClient);
      const up = http.request(
        { host: '127.0.0.1', port: backPort, method: req.method, path: req.url, headers: req.headers },
        (answer) => {
          const parts: Buffer[] = [];
          answer.on('data', (c: Buffer) => parts.push(c));
          answer.on('end', () => {
            let out = Buffer.concat(parts);
            const headers = { ...answer.headers };
            if (tokenClient !== undefined && peer.rewriteToken && answer.statusCode === 200) {
              out = Buffer.from(JSON.stringify(peer.rewriteToken(JSON.parse(out.toString()), tokenClient)));
            }
            delete headers['transfer-encoding'];
            headers['content-length'] = String(out.length);
            res.writeHead(answer.statusCode ?? 502, headers);
            res.end(out);
          });
        },
      );
      up.on('error', (err) => {
        res.statusCode = 502;
        res.end(String(err));
      });
      up.end(body);
    });
  });
  return peer;
}

/**
 * Follows the provider's redirects like a browser (with cookies) until it redirects to a URL
 * under `redirectUri`, and returns that URL (code, state, iss).
 */
export async function browse(authUrl: string, redirectUri: string): Promise<URL> {
  const jar = new Map<string, string>();
  let url = authUrl;
  for (let hop = 0; hop < 10; hop++) {
    const cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await fetch(url, { redirect: 'manual', headers: cookie ? { cookie } : {} });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const eq = pair!.indexOf('=');
      jar.set(pair!.slice(0, eq).trim(), pair!.slice(eq + 1));
    }
    const location = res.headers.get('location');
    const text = await res.text();
    if (res.status < 300 || res.status > 399 || !location)
      throw new Error(`the provider answered ${res.status} at ${url}: ${text.slice(0, 300)}`);
    const next = new URL(location, url);
    if (next.href.startsWith(redirectUri) && new URL(redirectUri).origin === next.origin) return next;
    url = next.href;
  }
  throw new Error('too many redirects at the provider');
}

/** A PKCE pair, for tests acting as another client of the provider. */
export function pkce(): { verifier: string; challenge: string } {
  const verifier = crypto.randomBytes(32).toString('base64url');
  return { verifier, challenge: crypto.createHash('sha256').update(verifier).digest('base64url') };
}
