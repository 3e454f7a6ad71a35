/**
 * Loopback simulators of the push services Herald's alerts reach: ntfy's publish API, Gotify's
 * message API, Telegram's bot API (sendMessage) and Discord's webhook execution. Each checks its
 * service's credentials as the real one does and answers in its shapes; `received` holds what
 * was delivered.
 */
import { Router, startSimServer, type FaultRenderer, type SimRequest, type SimServer } from './common.js';

export interface Received {
  title?: string;
  text: string;
  /** Where it went: topic, app, chat id, webhook. */
  to: string;
  headers: SimRequest['headers'];
}

export interface PushSimulator extends SimServer {
  received: Received[];
}

const render = (err: (status: number, msg: string) => unknown): FaultRenderer => ({
  rateLimited: () => ({ status: 429, body: err(429, 'Too Many Requests') }),
  serverError: (status) => ({ status, body: err(status, 'Internal Server Error') }),
  expiredToken: () => ({ status: 401, body: err(401, 'Unauthorized') }),
  notFound: () => ({ status: 404, body: err(404, 'Not Found') }),
});

async function start(router: Router, errors: (status: number, msg: string) => unknown): Promise<PushSimulator> {
  const received: Received[] = [];
  const sim = await startSimServer(router, render(errors));
  return Object.assign(sim, { received });
}

/** RFC 2047 base64 words (ntfy decodes them in headers). */
function decodeWords(v: string | undefined): string | undefined {
  return v?.replace(/=\?UTF-8\?B\?([^?]*)\?=/gi, (_m, b64: string) => Buffer.from(b64, 'base64').toString('utf8'));
}

/** ntfy: POST /<topic> with the message as the body; `auth` {user, password} makes the server require Basic. */
export async function startNtfySimulator(opts: { auth?: { user: string; password: string } } = {}) {
  const router = new Router();
  const ntfyError = (code: number, error: string) => ({ code: code * 100 + 1, http: code, error });
  const sim = await start(router, ntfyError);
  router.on('POST', '/:topic', (req) => {
    if (opts.auth) {
      const want = `Basic ${Buffer.from(`${opts.auth.user}:${opts.auth.password}`).toString('base64')}`;
      if (req.headers.authorization !== want) return { status: 401, body: ntfyError(401, 'unauthorized') };
    }
    const title = decodeWords(req.headers.title as string | undefined);
    const text = req.raw.toString('utf8');
    sim.received.push({ title, text, to: req.params.topic, headers: req.headers });
    const id = `msg${sim.received.length}`;
    return {
      status: 200,
      body: {
        id,
        time: Math.floor(Date.now() / 1000),
        event: 'message',
        topic: req.params.topic,
        message: text,
        title,
      },
    };
  });
  return sim;
}

/** Gotify: POST /message with an application token (X-Gotify-Key or ?token=). */
export async function startGotifySimulator(opts: { appToken: string }) {
  const router = new Router();
  const gotifyError = (code: number, error: string) => ({ error, errorCode: code, errorDescription: error });
  const sim = await start(router, gotifyError);
  router.on('POST', '/message', (req) => {
    const token = (req.headers['x-gotify-key'] as string | undefined) ?? req.query.get('token');
    if (token !== opts.appToken)
      return {
        status: 401,
        body: {
          ...gotifyError(401, 'Unauthorized'),
          errorDescription: 'you need to provide a valid access token or user credentials to access this api',
        },
      };
    if (req.bodyKind !== 'json' || typeof req.body.message !== 'string' || !req.body.message)
      return {
        status: 400,
        body: { ...gotifyError(400, 'Bad Request'), errorDescription: "Field 'message' is required" },
      };
    sim.received.push({ title: req.body.title, text: req.body.message, to: 'app', headers: req.headers });
    return {
      status: 200,
      body: {
        id: sim.received.length,
        appid: 1,
        message: req.body.message,
        title: req.body.title ?? '',
        priority: req.body.priority ?? 0,
        date: new Date().toISOString(),
      },
    };
  });
  return sim;
}

/** Telegram's bot API: POST /bot<token>/sendMessage to a chat the bot knows. */
export async function startTelegramSimulator(opts: { token: string; chats: string[] }) {
  const router = new Router();
  const tgError = (code: number, description: string) => ({ ok: false, error_code: code, description });
  const sim = await start(router, tgError);
  router.on('POST', '/bot:token/sendMessage', (req) => {
    if (req.params.token !== opts.token) return { status: 401, body: tgError(401, 'Unauthorized') };
    const chat = String(req.body.chat_id ?? '');
    if (!req.body.text) return { status: 400, body: tgError(400, 'Bad Request: message text is empty') };
    if (!opts.chats.includes(chat)) return { status: 400, body: tgError(400, 'Bad Request: chat not found') };
    sim.received.push({ text: req.body.text, to: chat, headers: req.headers });
    return {
      status: 200,
      body: {
        ok: true,
        result: {
          message_id: sim.received.length,
          chat: { id: Number(chat) || chat },
          date: Math.floor(Date.now() / 1000),
          text: req.body.text,
        },
      },
    };
  });
  return sim;
}

/** Discord: POST /api/webhooks/<id>/<token>; 204 unless ?wait=true. */
export async function startDiscordSimulator(opts: { webhookId: string; token: string }) {
  const router = new Router();
  const dError = (code: number, message: string) => ({ message, code: 0 });
  const sim = await start(router, dError);
  router.on('POST', '/api/webhooks/:id/:token', (req) => {
    if (req.params.id !== opts.webhookId) return { status: 404, body: { message: 'Unknown Webhook', code: 10015 } };
    if (req.params.token !== opts.token)
      return { status: 401, body: { message: 'Invalid Webhook Token', code: 50027 } };
    const content = req.body?.content;
    if (typeof content !== 'string' || !content)
      return { status: 400, body: { message: 'Cannot send an empty message', code: 50006 } };
    if (content.length > 2000) return { status: 400, body: { message: 'Invalid Form Body', code: 50035 } };
    sim.received.push({ text: content, to: req.params.id, headers: req.headers });
    if (req.query.get('wait') === 'true') return { status: 200, body: { id: String(sim.received.length), content } };
    return { status: 204 };
  });
  return sim;
}
