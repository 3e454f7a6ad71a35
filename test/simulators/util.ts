// Small helpers shared by the simulators: tokens with canaries, ids, PKCE, form values, redirects,
// Basic auth, and the per-account post counter used for duplicate checks.
import { createHash, randomBytes } from 'node:crypto';
import type { SimReply, SimRequest } from './common.js';

/** Matches every token, code and client secret a simulator issues. */
export const CANARY_PATTERN = /canary-(?:x|mastodon|threads|linkedin)-[a-z]+-[A-Za-z0-9_-]{24}/;

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** Token with a greppable canary, e.g. `canary-x-3f9a…`. */
export function canaryToken(network: string, kind: string): string {
  return `canary-${network}-${kind}-${randomBytes(18).toString('base64url')}`;
}

export function randomId(bytes = 9): string {
  return randomBytes(bytes).toString('base64url');
}

export function s256(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url');
}

export function str(v: unknown): string | undefined {
  if (Array.isArray(v)) return v.length ? String(v[0]) : undefined;
  return v === undefined || v === null ? undefined : String(v);
}

export function strList(v: unknown): string[] {
  if (v === undefined || v === null || v === '') return [];
  return (Array.isArray(v) ? v : [v]).map(String);
}

export function redirect(location: string): SimReply {
  return { status: 302, headers: { location } };
}

/** Builds the redirect back to the client with extra query parameters. */
export function withQuery(base: string, params: Record<string, string | undefined>): string {
  const u = new URL(base);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) u.searchParams.set(k, v);
  return u.toString();
}

/** Basic auth credentials, if any. */
export function basicAuth(req: SimRequest): { id: string; secret: string } | undefined {
  const m = /^Basic\s+(.+)$/i.exec(String(req.headers.authorization ?? ''));
  if (!m) return undefined;
  const dec = Buffer.from(m[1]!, 'base64').toString('utf8');
  const i = dec.indexOf(':');
  if (i < 0) return undefined;
  return { id: decodeURIComponent(dec.slice(0, i)), secret: decodeURIComponent(dec.slice(i + 1)) };
}

/** Counts posts by `${account}\u0000${text}` so tests can check for duplicates. */
export class PostCounter {
  private counts = new Map<string, number>();
  add(account: string, text: string): void {
    const k = `${account}\u0000${text}`;
    this.counts.set(k, (this.counts.get(k) ?? 0) + 1);
  }
  count(account: string, text: string): number {
    return this.counts.get(`${account}\u0000${text}`) ?? 0;
  }
  /** Entries with count > 1. */
  duplicates(): { account: string; text: string; count: number }[] {
    return [...this.counts]
      .filter(([, n]) => n > 1)
      .map(([k, count]) => {
        const [account, text] = k.split('\u0000') as [string, string];
        return { account, text, count };
      });
  }
}
