/**
 * A loopback HTTP proxy in front of a real peer (the Bluesky PDS) or a simulator, for faults the
 * peer itself cannot produce: it logs every request and can, for chosen routes,
 * - `commit-then-drop`: forward the request (the peer commits it), read the peer's answer, then
 *   cut the client's connection without a byte of it;
 * - `hold`: keep the request (before forwarding it, or after the peer committed it) until the
 *   test releases it, so a test can look at Herald mid-publish or kill it there.
 * Bodies are passed through untouched (JSON, blobs, multipart).
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { readBody } from '../simulators/common.js';

export type Route = string | RegExp;

export interface Held {
  /** Resolves when a matching request has arrived (and, with `after: 'commit'`, was committed). */
  arrived: Promise<void>;
  /** Lets the request go on (forward it, or send back the peer's answer). */
  release(): void;
}

export interface FaultProxy {
  url: string;
  port: number;
  /** Requests seen, as `METHOD /path` (query left off), in order. */
  requests: string[];
  /** Faults that fired, as `kind METHOD /path`. */
  fired: string[];
  /**
   * The next `times` matching requests (after `skip` let through) are committed at the peer and
   * their answers dropped.
   */
  dropAfterCommit(route: Route, opts?: { times?: number; skip?: number }): void;
  /** The next matching request (after `skip`) is answered `status` without reaching the peer. */
  fail(route: Route, status: number, opts?: { skip?: number; body?: unknown }): void;
  /** Holds the next matching request: before it reaches the peer, or once the peer committed it. */
  hold(route: Route, opts?: { after?: 'commit'; skip?: number }): Held;
  /** How many requests matched `route` so far. */
  count(route: Route): number;
  close(): Promise<void>;
}

interface Rule {
  route: Route;
  left: number;
  skip: number;
  kind: 'drop' | 'fail' | 'hold-before' | 'hold-after';
  held?: { arrive: () => void; gate: Promise<void> };
  status?: number;
  body?: unknown;
}

const matches = (route: Route, key: string) => (typeof route === 'string' ? key.includes(route) : route.test(key));

/** Starts a proxy to `target` (an origin like http://127.0.0.1:1234) on `port` (0: any free one). */
export async function startFaultProxy(target: string, opts: { port?: number } = {}): Promise<FaultProxy> {
  const upstream = new URL(target);
  const requests: string[] = [];
  const fired: string[] = [];
  const rules: Rule[] = [];
  const sockets = new Set<Socket>();

  const take = (key: string): Rule | undefined => {
    const rule = rules.find((r) => matches(r.route, key));
    if (!rule) return undefined;
    if (rule.skip > 0) {
      rule.skip -= 1;
      return undefined;
    }
    rule.left -= 1;
    if (rule.left <= 0) rules.splice(rules.indexOf(rule), 1);
    return rule;
  };

  const forward = (
    req: http.IncomingMessage,
    body: Buffer,
  ): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> =>
    new Promise((resolve, reject) => {
      const headers = { ...req.headers, host: upstream.host };
      delete headers['content-length'];
      delete headers['transfer-encoding'];
      const out = http.request(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: req.method,
          path: req.url,
          headers: { ...headers, 'content-length': String(body.length) },
        },
        (res) => {
          readBody(res).then((b) => resolve({ status: res.statusCode ?? 502, headers: res.headers, body: b }), reject);
        },
      );
      out.on('error', reject);
      out.end(body);
    });

  const handler = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const body = await readBody(req);
    const key = `${req.method} ${(req.url ?? '/').split('?')[0]}`;
    requests.push(key);
    const rule = take(key);
    if (rule) fired.push(`${rule.kind} ${key}`);
    if (rule?.kind === 'fail') {
      const payload = JSON.stringify(rule.body ?? { error: 'InternalServerError', message: 'Injected failure' });
      res.writeHead(rule.status ?? 500, {
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(payload)),
      });
      res.end(payload);
      return;
    }
    if (rule?.kind === 'hold-before') {
      rule.held!.arrive();
      await rule.held!.gate;
      // The client is gone (killed): its request never reaches the peer.
      if (req.socket.destroyed) return;
    }
    let answer;
    try {
      answer = await forward(req, body);
    } catch {
      req.socket.destroy();
      return;
    }
    if (rule?.kind === 'drop') {
      req.socket.destroy();
      return;
    }
    if (rule?.kind === 'hold-after') {
      rule.held!.arrive();
      await rule.held!.gate;
    }
    if (res.destroyed || req.socket.destroyed) return;
    const headers = { ...answer.headers };
    delete headers['transfer-encoding'];
    delete headers.connection;
    headers['content-length'] = String(answer.body.length);
    res.writeHead(answer.status, headers);
    res.end(answer.body);
  };

  const servers: http.Server[] = [];
  const listen = (host: string, port: number) =>
    new Promise<http.Server>((resolve, reject) => {
      const server = http.createServer((req, res) => {
        void handler(req, res);
      });
      server.on('connection', (s) => {
        sockets.add(s);
        s.on('close', () => sockets.delete(s));
      });
      server.once('error', reject);
      server.listen(port, host, () => resolve(server));
    });
  const first = await listen('127.0.0.1', opts.port ?? 0);
  servers.push(first);
  const port = (first.address() as AddressInfo).port;
  // `localhost` may resolve to ::1 on some machines: answer there too when it exists.
  try {
    servers.push(await listen('::1', port));
  } catch {
    /* no IPv6 loopback */
  }

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    fired,
    dropAfterCommit(route, o = {}) {
      rules.push({ route, left: o.times ?? 1, skip: o.skip ?? 0, kind: 'drop' });
    },
    fail(route, status, o = {}) {
      rules.push({ route, left: 1, skip: o.skip ?? 0, kind: 'fail', status, body: o.body });
    },
    hold(route, o = {}) {
      let arrive!: () => void;
      let release!: () => void;
      const arrived = new Promise<void>((r) => {
        arrive = r;
      });
      const gate = new Promise<void>((r) => {
        release = r;
      });
      rules.push({
        route,
        left: 1,
        skip: o.skip ?? 0,
        kind: o.after === 'commit' ? 'hold-after' : 'hold-before',
        held: { arrive, gate },
      });
      return { arrived, release };
    },
    count: (route) => requests.filter((k) => matches(route, k)).length,
    close: async () => {
      for (const s of sockets) s.destroy();
      await Promise.all(servers.map((s) => new Promise<void>((r) => s.close(() => r()))));
    },
  };
}
