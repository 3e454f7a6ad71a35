/**
 * How the listening socket treats slow and idle clients. Herald is a local app, so the only
 * clients are this user's own programs and whatever a web page or another local program can
 * aim at the port; the threat is not bandwidth but descriptors: macOS gives a process 256, and
 * a few hundred sockets that never finish their headers (slowloris) or sit idle after keep-alive
 * once starved every client, the owner's UI included.
 *
 * - headers must arrive within `headersTimeoutMs`, checked often enough to matter;
 * - a socket silent both ways for `idleTimeoutMs` is closed: an upload that keeps moving, however
 *   slowly, is never cut (no whole-request cap unless `requestTimeoutMs` asks for one);
 * - at most `maxConnections` are kept: a new connection past the cap closes the oldest socket that
 *   is not serving a request (stalled in its headers, or idle between keep-alive requests), so a
 *   flood makes room for the next client instead of shutting it out. Only when every kept socket
 *   is busy with a request is the newcomer refused.
 */
import type http from 'node:http';
import type { Socket } from 'node:net';

export interface SocketLimits {
  headersTimeoutMs: number;
  idleTimeoutMs: number;
  keepAliveTimeoutMs: number;
  requestTimeoutMs: number;
  maxConnections: number;
}

/** Options for http.createServer. */
export function serverTimeouts(l: SocketLimits): http.ServerOptions {
  return {
    headersTimeout: l.headersTimeoutMs,
    requestTimeout: l.requestTimeoutMs,
    keepAliveTimeout: l.keepAliveTimeoutMs,
    // Node checks both timeouts on this interval (default 30 s, which would let a stalled
    // socket live far past a short headers timeout).
    connectionsCheckingInterval: Math.max(100, Math.min(1000, Math.floor(l.headersTimeoutMs / 4))),
  };
}

/** Applies the idle timeout and the connection cap to a server. */
export function limitSockets(server: http.Server, l: SocketLimits): void {
  server.setTimeout(l.idleTimeoutMs, (socket: Socket) => socket.destroy());
  // Insertion order is age order: a socket moves to the end when it finishes a request.
  const busy = new Map<Socket, boolean>();
  server.on('connection', (socket: Socket) => {
    busy.set(socket, false);
    socket.once('close', () => busy.delete(socket));
    if (busy.size <= l.maxConnections) return;
    for (const [other, serving] of busy) {
      if (other === socket || serving) continue;
      other.destroy();
      busy.delete(other);
      return;
    }
    socket.destroy();
  });
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    const socket = req.socket;
    if (!busy.has(socket)) return;
    busy.set(socket, true);
    res.once('close', () => {
      if (!busy.has(socket)) return;
      busy.delete(socket);
      busy.set(socket, false);
    });
  });
}
