// What the simulators' authorize endpoints answer: an HTML error page (for a request that cannot go
// back to the client), and the redirect back to the client with the request's `state` echoed.
import type { SimReply } from './common.js';
import { redirect, withQuery } from './util.js';

/** An HTML page with this status (the authorize endpoint refusing a bad client or redirect URI). */
export function htmlPage(status: number, html: string): SimReply {
  return { status, raw: html, headers: { 'content-type': 'text/html' } };
}

/** The redirect to `redirectUri` with these parameters and the request's `state`. */
export function backTo(redirectUri: string, q: URLSearchParams) {
  return (p: Record<string, string | undefined>): SimReply =>
    redirect(withQuery(redirectUri, { ...p, state: q.get('state') ?? undefined }));
}
