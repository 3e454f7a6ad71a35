/**
 * A quote's URL read as a post of one of the five networks, or null when it is none. Parsed
 * with `new URL`, never by prefix: the host decides the network, the path the post.
 * Mastodon has no fixed host, so any https host with a Mastodon post path (`/@user/123` or
 * `/users/user/statuses/123`) that is not one of the other networks counts as Mastodon.
 */
import type { Platform } from './networks.js';

export interface QuotedPost {
  platform: Platform;
  /** The post id as the network's own API names it where the URL holds it (X id, LinkedIn URN). */
  id?: string;
  /** Bluesky: the author's handle or DID (and the record key below); Threads: the author's username. */
  author?: string;
  rkey?: string;
  /** Threads: the post's shortcode. */
  code?: string;
  url: string;
}

const X_HOSTS = new Set(['x.com', 'twitter.com', 'mobile.twitter.com', 'mobile.x.com']);
const BSKY_HOSTS = new Set(['bsky.app', 'staging.bsky.app']);
const THREADS_HOSTS = new Set(['threads.net', 'threads.com']);
const LINKEDIN_HOSTS = new Set(['linkedin.com']);

const bare = (host: string) => host.toLowerCase().replace(/^www\./, '');

/** A path segment decoded; undefined when its %-escapes are malformed (such a URL names no post). */
function decoded(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

export function parseQuoteUrl(raw: string): QuotedPost | null {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return null;
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') return null;
  const host = bare(u.hostname);
  const seg = u.pathname.split('/').filter(Boolean);
  const url = u.href;
  if (X_HOSTS.has(host)) {
    const at = seg.indexOf('status');
    const id = at >= 0 ? seg[at + 1] : undefined;
    return id && /^[0-9]{1,19}$/.test(id) ? { platform: 'microblog', id, url } : null;
  }
  if (BSKY_HOSTS.has(host)) {
    if (seg[0] !== 'profile' || seg[2] !== 'post' || !seg[1] || !seg[3] || seg.length !== 4) return null;
    if (!/^[a-zA-Z0-9._:~-]{1,512}$/.test(seg[3])) return null;
    const author = decoded(seg[1]);
    return author ? { platform: 'skyblog', author, rkey: seg[3], url } : null;
  }
  if (THREADS_HOSTS.has(host)) {
    if (seg.length < 3 || !seg[0].startsWith('@') || seg[1] !== 'post') return null;
    if (!/^[A-Za-z0-9_-]{5,64}$/.test(seg[2])) return null;
    const author = decoded(seg[0].slice(1));
    return author ? { platform: 'threadblog', code: seg[2], author, url } : null;
  }
  if (LINKEDIN_HOSTS.has(host)) {
    const urn = decoded(seg[0] === 'feed' && seg[1] === 'update' ? (seg[2] ?? '') : '') ?? '';
    return /^urn:li:(share|ugcPost|activity):[0-9]{1,25}$/.test(urn) ? { platform: 'problog', id: urn, url } : null;
  }
  if (u.protocol !== 'https:' && !isLoopback(host)) return null;
  const masto =
    (seg.length === 2 && /^@[A-Za-z0-9_.-]+(@[A-Za-z0-9.-]+)?$/.test(seg[0]) && /^[0-9]{1,20}$/.test(seg[1])) ||
    (seg.length === 4 && seg[0] === 'users' && seg[2] === 'statuses' && /^[0-9]{1,20}$/.test(seg[3]));
  return masto ? { platform: 'fedblog', id: seg[seg.length - 1], url } : null;
}

// A test instance on this machine speaks plain HTTP; a public one never does.
const isLoopback = (host: string) => host === 'localhost' || host === '127.0.0.1' || host === '[::1]';
