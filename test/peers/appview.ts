/**
 * A small Bluesky AppView for the real PDS to proxy `app.bsky.*` reads to: it answers
 * app.bsky.feed.getPosts (at most 25 URIs, as the real AppView) from the PDS's own records, with
 * the like, repost, reply and quote counts a test sets (`engage`). A URI whose record the PDS no
 * longer holds is left out of the answer, as the AppView leaves out deleted posts. The PDS signs
 * a service token for each proxied call; this AppView takes it as given (it is not what is tested).
 */
import http from 'node:http';
import type net from 'node:net';

export interface AppViewCounts {
  likeCount: number;
  repostCount: number;
  replyCount: number;
  quoteCount: number;
}

export interface AppView {
  url: string;
  did: string;
  /** Set once the PDS is up (the AppView reads records from it). */
  pdsUrl: string;
  /** Adds to a post's counts. */
  engage(uri: string, more: Partial<AppViewCounts>): void;
  /** The URIs of each getPosts call, in order. */
  calls: string[][];
  /** The next `n` getPosts calls answer 429 with a RateLimit-Reset `resetInSeconds` ahead. */
  rateLimitNext(n: number, resetInSeconds?: number): void;
  close(): Promise<void>;
}

/**
 * `lookUp: false` (benchmarks): every URI asked for is a post, answered without reading the PDS,
 * so 10,000 tracked posts need no 10,000 records.
 */
export async function startAppView(opts: { lookUp?: boolean } = {}): Promise<AppView> {
  const counts = new Map<string, AppViewCounts>();
  const calls: string[][] = [];
  let limited = 0;
  let resetIn = 60;
  const view: AppView = {
    url: '',
    did: '',
    pdsUrl: '',
    engage(uri, more) {
      const c = counts.get(uri) ?? { likeCount: 0, repostCount: 0, replyCount: 0, quoteCount: 0 };
      for (const [k, v] of Object.entries(more) as [keyof AppViewCounts, number][]) c[k] += v;
      counts.set(uri, c);
    },
    calls,
    rateLimitNext(n, seconds = 60) {
      limited = n;
      resetIn = seconds;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const send = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };
  const server = http.createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://appview.test');
      if (url.pathname !== '/xrpc/app.bsky.feed.getPosts')
        return send(res, 501, { error: 'MethodNotImplemented', message: 'Method Not Implemented' });
      if (limited > 0) {
        limited -= 1;
        const reset = String(Math.floor(Date.now() / 1000) + resetIn);
        return send(
          res,
          429,
          { error: 'RateLimitExceeded', message: 'Rate Limit Exceeded' },
          {
            'ratelimit-limit': '3000',
            'ratelimit-remaining': '0',
            'ratelimit-reset': reset,
          },
        );
      }
      const uris = url.searchParams.getAll('uris');
      if (uris.length > 25)
        return send(res, 400, { error: 'InvalidRequest', message: 'Error: uris must not have more than 25 elements' });
      calls.push(uris);
      const posts = [];
      for (const uri of uris) {
        const m = /^at:\/\/([^/]+)\/([^/]+)\/([^/]+)$/.exec(uri);
        if (!m) continue;
        if (opts.lookUp === false) {
          const c = counts.get(uri) ?? { likeCount: 1, repostCount: 0, replyCount: 0, quoteCount: 0 };
          posts.push({ uri, cid: 'bafyreib2rxk3rh6kzwq', author: { did: m[1], handle: 'handle.invalid' }, ...c });
          continue;
        }
        const q = new URLSearchParams({ repo: m[1]!, collection: m[2]!, rkey: m[3]! });
        const r = await fetch(`${view.pdsUrl}/xrpc/com.atproto.repo.getRecord?${q}`);
        if (!r.ok) continue;
        const rec = (await r.json()) as { uri: string; cid: string; value: unknown };
        const c = counts.get(uri) ?? { likeCount: 0, repostCount: 0, replyCount: 0, quoteCount: 0 };
        posts.push({
          uri: rec.uri,
          cid: rec.cid,
          author: { did: m[1], handle: 'handle.invalid' },
          record: rec.value,
          ...c,
          indexedAt: new Date().toISOString(),
          labels: [],
        });
      }
      send(res, 200, { posts });
    })().catch((err: Error) => send(res, 500, { error: 'InternalServerError', message: err.message }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  view.url = `http://127.0.0.1:${port}`;
  view.did = `did:web:appview.test`;
  return view;
}
