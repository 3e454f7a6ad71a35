/**
 * The draft's post options as Bluesky records: self labels on each post record, a quote as its
 * `embed.record` (the quoted post's at-uri from its bsky.app link), and on the thread's first post
 * an `app.bsky.feed.threadgate` (who may reply) and on every post an `app.bsky.feed.postgate`
 * (quoting off), each with the post's own record key. The post and its gates are written in one
 * `applyWrites`, so a post never exists without the gate it was meant to have.
 */
import { parseQuoteUrl } from '../../../text/quote-url.js';
import type { PostInput, PostRef } from '../adapter.js';

const RULES = {
  following: 'app.bsky.feed.threadgate#followingRule',
  followers: 'app.bsky.feed.threadgate#followerRule',
  mentioned: 'app.bsky.feed.threadgate#mentionRule',
} as const;

/** Self labels as the post record's `labels`, or undefined. */
export function selfLabels(post: PostInput): Record<string, unknown> | undefined {
  const values = post.options.post?.selfLabels ?? [];
  if (values.length === 0) return undefined;
  return { $type: 'com.atproto.label.defs#selfLabels', values: values.map((val) => ({ val })) };
}

/** The quoted post as a PostRef (at-uri, cid fetched later), resolving a handle to its DID. */
export async function quoteOf(
  post: PostInput,
  resolve: (handle: string) => Promise<string | null>,
): Promise<PostRef | undefined> {
  if (post.quote || post.replyTo || !post.options.post?.quoteUrl) return post.quote;
  const q = parseQuoteUrl(post.options.post.quoteUrl);
  if (q?.platform !== 'skyblog' || !q.author || !q.rkey) return undefined;
  const did = q.author.startsWith('did:') ? q.author : await resolve(q.author);
  return did ? { id: `at://${did}/app.bsky.feed.post/${q.rkey}`, url: q.url } : undefined;
}

/** The gate records this post needs, keyed by collection (none: the post is written alone). */
export function gatesFor(post: PostInput, uri: string, createdAt: string): Record<string, Record<string, unknown>> {
  const o = post.options.post;
  const out: Record<string, Record<string, unknown>> = {};
  if (!o) return out;
  const control = o.replyControl;
  if (!post.replyTo && control && control !== 'everyone') {
    const allow = control === 'nobody' ? [] : [{ $type: RULES[control] }];
    out['app.bsky.feed.threadgate'] = { $type: 'app.bsky.feed.threadgate', post: uri, allow, createdAt };
  }
  if (o.quoteControl === 'nobody') {
    out['app.bsky.feed.postgate'] = {
      $type: 'app.bsky.feed.postgate',
      post: uri,
      createdAt,
      embeddingRules: [{ $type: 'app.bsky.feed.postgate#disableRule' }],
    };
  }
  return out;
}

const S32 = '234567abcdefghijklmnopqrstuvwxyz';
let lastMicros = 0;

/** A record key (TID): microseconds since the epoch and a random clock id, base32-sortable. */
export function newTid(): string {
  let micros = Date.now() * 1000;
  if (micros <= lastMicros) micros = lastMicros + 1;
  lastMicros = micros;
  const clock = Math.floor(Math.random() * 1024);
  let n = (BigInt(micros) << 10n) | BigInt(clock);
  let out = '';
  for (let i = 0; i < 13; i++) {
    out = S32[Number(n & 31n)] + out;
    n >>= 5n;
  }
  return out;
}
