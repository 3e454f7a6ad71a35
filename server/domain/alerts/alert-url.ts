/**
 * Alert destination URLs (docs/decisions.md, Alerts): one URL names the service, where it is and
 * its credentials. parseAlertUrl reads one into what a sender needs, or names what is missing;
 * shownUrl is the same URL with its credentials masked, the only form ever answered back.
 */
import { HeraldError } from '../../core/errors.js';

export const ALERT_KINDS = ['ntfy', 'gotify', 'telegram', 'discord', 'matrix', 'generic'] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

export type Destination =
  | { kind: 'ntfy'; base: string; topic: string; user?: string; password?: string }
  | { kind: 'gotify'; base: string; token: string }
  | { kind: 'telegram'; token: string; chats: string[] }
  | { kind: 'discord'; webhookId: string; token: string }
  | { kind: 'matrix'; base: string; user: string; password: string; rooms: string[] }
  | { kind: 'generic'; url: string };

export interface ParsedAlertUrl {
  destination: Destination;
  shownUrl: string;
}

const MASK = '***';

const missing = (what: string, example: string) =>
  new HeraldError('INVALID_INPUT', `The alert URL is missing ${what} (${example}).`, {
    details: [{ path: 'body.url', message: `missing ${what}` }],
  });

const dec = (s: string) => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};

const list = (v: string | null) =>
  (v ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

const segments = (u: URL) => u.pathname.split('/').filter(Boolean).map(dec);

/** `tls=no` (or false/0) turns HTTPS off for services on a home network. */
const httpsUnless = (u: URL) => (/^(no|false|0)$/i.test(u.searchParams.get('tls') ?? '') ? 'http' : 'https');

export function parseAlertUrl(raw: string): ParsedAlertUrl {
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(raw.trim())?.[1]?.toLowerCase();
  if (!scheme)
    throw new HeraldError('INVALID_INPUT', 'The alert URL is missing its scheme (ntfy://, gotify://, ...).', {
      details: [{ path: 'body.url', message: 'missing the scheme' }],
    });
  let u: URL;
  try {
    u = new URL(raw.trim());
  } catch {
    throw new HeraldError('INVALID_INPUT', 'The alert URL is not a valid URL.');
  }
  switch (scheme) {
    case 'ntfy':
    case 'ntfys':
      return ntfy(u, scheme === 'ntfys' ? 'https' : 'http');
    case 'gotify':
      return gotify(u);
    case 'telegram':
      return telegram(u);
    case 'discord':
      return discord(u);
    case 'matrix':
      return matrix(u);
    case 'generic+https':
    case 'generic+http':
      return generic(u, scheme.slice('generic+'.length));
    default:
      throw new HeraldError(
        'INVALID_INPUT',
        `Herald does not know the alert scheme ${scheme}://: use ntfy://, ntfys://, gotify://, telegram://, ` +
          'discord://, matrix:// or generic+https://.',
        { details: [{ path: 'body.url', message: `unknown scheme ${scheme}` }] },
      );
  }
}

const hostPort = (u: URL) => (u.port ? `${u.hostname}:${u.port}` : u.hostname);

function ntfy(u: URL, proto: string): ParsedAlertUrl {
  if (!u.hostname) throw missing('the host', 'ntfy://ntfy.example/mytopic');
  const topic = segments(u).at(-1);
  if (!topic) throw missing('the topic', 'ntfy://ntfy.example/mytopic');
  const prefix = segments(u).slice(0, -1).join('/');
  const base = `${proto}://${hostPort(u)}${prefix ? `/${prefix}` : ''}`;
  const user = u.username ? dec(u.username) : undefined;
  const password = u.password ? dec(u.password) : undefined;
  const auth = user ? `${u.username}${password ? `:${MASK}` : ''}@` : '';
  return {
    destination: { kind: 'ntfy', base, topic, user, password },
    shownUrl: `${proto === 'https' ? 'ntfys' : 'ntfy'}://${auth}${hostPort(u)}${u.pathname}`,
  };
}

function gotify(u: URL): ParsedAlertUrl {
  if (!u.hostname) throw missing('the host', 'gotify://gotify.example/apptoken');
  const segs = segments(u);
  const token = segs.at(-1);
  if (!token) throw missing('the app token', 'gotify://gotify.example/apptoken');
  const prefix = segs.slice(0, -1).join('/');
  const base = `${httpsUnless(u)}://${hostPort(u)}${prefix ? `/${prefix}` : ''}`;
  return {
    destination: { kind: 'gotify', base, token },
    shownUrl: `gotify://${hostPort(u)}/${prefix ? `${prefix}/` : ''}${MASK}${u.search}`,
  };
}

function telegram(u: URL): ParsedAlertUrl {
  // A bot token has a colon (123456:ABC...), which the URL parser splits into user and password.
  const token = [dec(u.username), dec(u.password)].filter(Boolean).join(':');
  if (!token) throw missing('the bot token', 'telegram://123456:ABC@telegram?chats=12345');
  const chats = list(u.searchParams.get('chats'));
  if (chats.length === 0) throw missing('chats', 'telegram://123456:ABC@telegram?chats=12345');
  return {
    destination: { kind: 'telegram', token, chats },
    shownUrl: `telegram://${MASK}@telegram?chats=${chats.join(',')}`,
  };
}

function discord(u: URL): ParsedAlertUrl {
  const token = [dec(u.username), dec(u.password)].filter(Boolean).join(':');
  if (!token) throw missing('the webhook token', 'discord://token@webhookId');
  if (!u.hostname) throw missing('the webhook id', 'discord://token@webhookId');
  return {
    destination: { kind: 'discord', webhookId: u.hostname, token },
    shownUrl: `discord://${MASK}@${u.hostname}`,
  };
}

function matrix(u: URL): ParsedAlertUrl {
  const example = 'matrix://user:password@matrix.example/?rooms=!room:matrix.example';
  if (!u.username) throw missing('the user', example);
  if (!u.password) throw missing('the password', example);
  if (!u.hostname) throw missing('the host', example);
  const rooms = list(u.searchParams.get('rooms'));
  if (rooms.length === 0) throw missing('rooms', example);
  const prefix = segments(u).join('/');
  const base = `${httpsUnless(u)}://${hostPort(u)}${prefix ? `/${prefix}` : ''}`;
  return {
    destination: { kind: 'matrix', base, user: dec(u.username), password: dec(u.password), rooms },
    shownUrl: `matrix://${u.username}:${MASK}@${hostPort(u)}${u.pathname}${u.search}`,
  };
}

function generic(u: URL, proto: string): ParsedAlertUrl {
  if (!u.hostname) throw missing('the host', 'generic+https://hooks.example/herald');
  const url = new URL(u.href.replace(/^generic\+/i, ''));
  if (url.protocol !== `${proto}:`) throw missing('the host', 'generic+https://hooks.example/herald');
  const shown = new URL(url.href);
  if (shown.password) shown.password = MASK;
  for (const k of [...shown.searchParams.keys()]) shown.searchParams.set(k, MASK);
  return { destination: { kind: 'generic', url: url.href }, shownUrl: `generic+${decodeURI(shown.href)}` };
}
