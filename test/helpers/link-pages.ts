/**
 * A loopback web site for link-card tests: pages with Open Graph / Twitter-card tags, their
 * images, and the awkward cases (not HTML, huge, never answering, redirects). It counts the hits
 * of every path and the bytes it managed to write, so a test can tell a cache hit from a fetch
 * and a capped read from a whole download.
 */
import http from 'node:http';
import type net from 'node:net';

export interface LinkPages {
  url: string;
  port: number;
  hits: Map<string, number>;
  /** Bytes written per path before the client went away. */
  written: Map<string, number>;
  /** Serves `body` at `path` (a function gets the request). */
  route(path: string, handler: (req: http.IncomingMessage, res: http.ServerResponse) => void): void;
  close(): Promise<void>;
}

export const html = (head: string, body = '<p>Hello</p>') =>
  `<!doctype html><html><head>${head}</head><body>${body}</body></html>`;

export async function startLinkPages(): Promise<LinkPages> {
  const routes = new Map<string, (req: http.IncomingMessage, res: http.ServerResponse) => void>();
  const hits = new Map<string, number>();
  const written = new Map<string, number>();
  const sockets = new Set<net.Socket>();
  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const write = res.write.bind(res);
    res.write = ((chunk: any, ...rest: any[]) => {
      written.set(path, (written.get(path) ?? 0) + Buffer.byteLength(chunk));
      return write(chunk, ...rest);
    }) as typeof res.write;
    const handler = routes.get(path);
    if (!handler) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    handler(req, res);
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as net.AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    hits,
    written,
    route: (path, handler) => {
      routes.set(path, handler);
    },
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}
