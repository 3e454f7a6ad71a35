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

const PARSER_REFUSALS: Record<string, [number, string, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'Request Header Fields Too Large', 'The request line or its headers are over 16 KB'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout', 'The request did not arrive in time'],
};

/**
 * Requests Node's parser refuses before Herald sees them (a URL or headers over 16 KB, broken
 * syntax, a request too slow to arrive) are answered in the error envelope like every other
 * refusal, so a script reads one shape whatever went wrong; then the connection closes.
 */
export function answerParserErrors(server: http.Server): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (err.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    const [status, reason, message] = PARSER_REFUSALS[err.code ?? ''] ?? [
      400,
      'Bad Request',
      'The request is not valid HTTP/1.1',
    ];
    const body = JSON.stringify({ success: false, error: 'INVALID_INPUT', message });
    const answer =
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
    // A stalled client is cut at once (the point of the timeout); others get a moment to read the
    // answer before the socket goes, however they stall afterwards.
    if (status === 408) socket.write(answer, () => socket.destroy());
    else {
      socket.end(answer);
      setTimeout(() => socket.destroy(), 1000).unref();
    }
  });
}
