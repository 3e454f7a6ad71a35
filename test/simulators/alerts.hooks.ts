/**
 * Loopback simulators of Matrix's client-server API (password login, join, send with a
 * transaction id: the same id twice is one message) and of a generic webhook receiver that checks
 * Herald's X-Herald-Signature over the raw body.
 */
import crypto from 'node:crypto';
import { Router, startSimServer, type FaultRenderer, type SimServer } from './common.js';
import type { Received } from './alerts.push.js';

const matrixRender: FaultRenderer = {
  rateLimited: () => ({ status: 429, body: { errcode: 'M_LIMIT_EXCEEDED', error: 'Too many requests' } }),
  serverError: (status) => ({ status, body: { errcode: 'M_UNKNOWN', error: 'Internal server error' } }),
  expiredToken: () => ({ status: 401, body: { errcode: 'M_UNKNOWN_TOKEN', error: 'Invalid access token' } }),
  notFound: () => ({ status: 404, body: { errcode: 'M_UNRECOGNIZED', error: 'Unrecognized request' } }),
};

export interface MatrixSimulator extends SimServer {
  received: Received[];
  logins: number;
  /** Every access token given out, so a test can log one out. */
  tokens: Set<string>;
}

/** `rooms`: room id → aliases; the user must join a room before sending to it. */
export async function startMatrixSimulator(opts: {
  user: string;
  password: string;
  server: string;
  rooms: Record<string, string[]>;
}): Promise<MatrixSimulator> {
  const router = new Router();
  const sim = Object.assign(await startSimServer(router, matrixRender), {
    received: [] as Received[],
    logins: 0,
    tokens: new Set<string>(),
  });
  const joined = new Set<string>();
  const txns = new Map<string, string>();
  const userId = `@${opts.user}:${opts.server}`;
  const authed = (h: string | undefined) => !!h && sim.tokens.has(h.replace(/^Bearer /, ''));
  const unknownToken = { status: 401, body: { errcode: 'M_UNKNOWN_TOKEN', error: 'Invalid access token passed.' } };
  const roomOf = (idOrAlias: string) =>
    opts.rooms[idOrAlias] ? idOrAlias : Object.keys(opts.rooms).find((id) => opts.rooms[id].includes(idOrAlias));

  router.on('POST', '/_matrix/client/v3/login', (req) => {
    const b = req.body ?? {};
    const who = b.identifier?.type === 'm.id.user' ? b.identifier.user : b.user;
    if (b.type !== 'm.login.password' || (who !== opts.user && who !== userId) || b.password !== opts.password)
      return { status: 403, body: { errcode: 'M_FORBIDDEN', error: 'Invalid username or password' } };
    sim.logins++;
    const token = `syt_${crypto.randomBytes(12).toString('hex')}`;
    sim.tokens.add(token);
    return { status: 200, body: { access_token: token, user_id: userId, device_id: `DEV${sim.logins}` } };
  });
  router.on('POST', '/_matrix/client/v3/join/:room', (req) => {
    if (!authed(req.headers.authorization)) return unknownToken;
    const id = roomOf(req.params.room);
    if (!id) return { status: 404, body: { errcode: 'M_NOT_FOUND', error: 'No known servers' } };
    joined.add(id);
    return { status: 200, body: { room_id: id } };
  });
  router.on('PUT', '/_matrix/client/v3/rooms/:room/send/:type/:txn', (req) => {
    if (!authed(req.headers.authorization)) return unknownToken;
    if (!joined.has(req.params.room))
      return { status: 403, body: { errcode: 'M_FORBIDDEN', error: `User ${userId} not in room ${req.params.room}` } };
    const key = `${req.headers.authorization} ${req.params.room} ${req.params.txn}`;
    const seen = txns.get(key);
    if (seen) return { status: 200, body: { event_id: seen } };
    if (req.params.type !== 'm.room.message' || typeof req.body?.body !== 'string')
      return { status: 400, body: { errcode: 'M_BAD_JSON', error: 'Bad content' } };
    sim.received.push({ text: req.body.body, to: req.params.room, headers: req.headers });
    const eventId = `$ev${sim.received.length}`;
    txns.set(key, eventId);
    return { status: 200, body: { event_id: eventId } };
  });
  return sim;
}

export interface WebhookSimulator extends SimServer {
  received: (Received & { body: any; signature?: string })[];
  /** Requests refused for a missing or wrong signature. */
  refused: number;
}

/** A JSON webhook at POST /hook; with `secret`, unsigned or wrongly signed bodies are refused 401. */
export async function startWebhookSimulator(opts: { secret?: string } = {}): Promise<WebhookSimulator> {
  const router = new Router();
  const sim = Object.assign(
    await startSimServer(router, {
      rateLimited: () => ({ status: 429, body: { error: 'slow down' } }),
      serverError: (status) => ({ status, body: { error: 'down' } }),
      expiredToken: () => ({ status: 401, body: { error: 'unauthorized' } }),
      notFound: () => ({ status: 404, body: { error: 'not found' } }),
    }),
    { received: [] as WebhookSimulator['received'], refused: 0 },
  );
  router.on('POST', '/hook', (req) => {
    const signature = req.headers['x-herald-signature'] as string | undefined;
    if (opts.secret) {
      const want = `sha256=${crypto.createHmac('sha256', opts.secret).update(req.raw).digest('hex')}`;
      const ok =
        !!signature &&
        signature.length === want.length &&
        crypto.timingSafeEqual(Buffer.from(signature), Buffer.from(want));
      if (!ok) {
        sim.refused++;
        return { status: 401, body: { error: 'bad signature' } };
      }
    }
    sim.received.push({
      title: req.body?.title,
      text: req.body?.text,
      to: 'hook',
      headers: req.headers,
      body: req.body,
      signature,
    });
    return { status: 200, body: { ok: true } };
  });
  return sim;
}
