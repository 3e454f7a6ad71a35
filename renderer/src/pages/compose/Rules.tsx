/**
 * Each selected network's rules before publishing (text/rules.ts): lengths, how links count,
 * images per post and their size, the Mastodon instance's own limits when the account knows
 * them, and Threads' need for public image URLs; with one-click fixes where there are threads.
 */
import {
  LINKEDIN_COMMENT_LIMIT,
  NETWORK_LABELS,
  networkRules,
  type CountOptions,
  type Platform,
} from '../../../../text/index';
import type { Post } from './model';
import type { NetworkPreview } from './Previews';

const mb = (n: number) =>
  n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(n % (1024 * 1024) ? 1 : 0)} MB` : `${Math.round(n / 1024)} KB`;

export interface Issue {
  platform: Platform;
  kind: 'length' | 'images' | 'size' | 'public-media' | 'other';
  text: string;
}

/** What stops or spoils a post on each network, in words, before anything is sent. */
export function ruleIssues(previews: NetworkPreview[], posts: Post[], relayReady = false): Issue[] {
  const out: Issue[] = [];
  for (const p of previews) {
    const r = networkRules(p.platform, p.opts);
    const name = NETWORK_LABELS[p.platform];
    const long = p.verdicts.filter((v) => v.count > v.limit).length;
    if (long)
      out.push({
        platform: p.platform,
        kind: 'length',
        text: r.threads
          ? `${long} post${long === 1 ? ' is' : 's are'} too long for ${name}.`
          : `Too long for ${name}, which has no threads: the first post goes as the post (at most ${r.limit} ` +
            `characters), the others as its comments (at most ${LINKEDIN_COMMENT_LIMIT} each). Shorten ` +
            `${long === 1 ? 'it' : 'them'}, or give ${name} its own text.`,
      });
    // Index loops: this runs for every post of every network on every key, and iterators and
    // pairs were most of what a key left for the garbage collector here.
    for (let i = 0; i < p.posts.length; i++) {
      const n = p.posts[i].media.length;
      if (n > r.images)
        out.push({
          platform: p.platform,
          kind: 'images',
          text: `Post ${i + 1} has ${n} media; ${name} takes ${r.images} per post.`,
        });
    }
    if (r.imageBytes) {
      for (let i = 0; i < posts.length; i++)
        for (let k = 0; k < posts[i].media.length; k++) {
          const m = posts[i].media[k];
          const cap = m.type === 'gif' ? (r.gifBytes ?? r.imageBytes) : r.imageBytes;
          if (m.type === 'video' || !m.size || m.size <= cap) continue;
          // A photo over the cap is made smaller on the way out; an animated GIF is not.
          if (r.shrinksStills && m.type !== 'gif') continue;
          out.push({
            platform: p.platform,
            kind: 'size',
            text:
              m.type === 'gif'
                ? `Media ${k + 1} of post ${i + 1}, a GIF of ${mb(m.size)}, is over ${name}'s ${mb(cap)} per ` +
                  `${r.gifBytes ? 'GIF' : 'image'}` +
                  `${r.shrinksStills ? '; Herald makes photos smaller, not animated GIFs' : ''}.`
                : `Image ${k + 1} of post ${i + 1} is ${mb(m.size)}; ${name} takes images up to ${mb(r.imageBytes)}.`,
          });
        }
    }
    if (r.publicMediaOnly && !relayReady && p.posts.some((q) => q.media.length > 0)) {
      out.push({
        platform: p.platform,
        kind: 'public-media',
        text:
          `${name} takes media from a public address: set up a media relay in Settings, or leave ${name} ` +
          `out of this post.`,
      });
    }
    for (let i = 0; i < p.verdicts.length; i++) {
      const v = p.verdicts[i];
      if (
        !v.valid &&
        v.count <= v.limit &&
        v.reason &&
        v.reason !== 'the post is empty' &&
        !/ takes at most \d+ images/.test(v.reason)
      )
        out.push({ platform: p.platform, kind: 'other', text: `Post ${i + 1}: ${v.reason}.` });
    }
  }
  return out;
}

// A network's rules line, made once per account's options: formatting numbers for every
// network on every key cost more than the rest of this panel.
const lines = new Map<string, string>();
function line(platform: Platform, opts: CountOptions, server?: string): string {
  const key = `${platform}\u0001${JSON.stringify(opts)}\u0001${server ?? ''}`;
  let out = lines.get(key);
  if (out !== undefined) return out;
  const r = networkRules(platform, opts);
  out =
    `${r.limit.toLocaleString('en')} characters per post, ${r.links}; up to ${r.images} images per post` +
    (r.imageBytes
      ? ` of ${mb(r.imageBytes)} each${r.shrinksStills ? ' (Herald makes larger photos smaller)' : ''}`
      : '') +
    '; ' +
    (r.threads
      ? 'threads'
      : `no threads: later posts go as comments on the first, ${LINKEDIN_COMMENT_LIMIT.toLocaleString('en')} ` +
        'characters each') +
    `${r.publicMediaOnly ? '; media only from public URLs' : ''}` +
    `${r.fromInstance ? ` (the limits of ${server ?? 'this instance'})` : ''}`;
  if (lines.size > 100) lines.clear();
  lines.set(key, out);
  return out;
}

export function Rules({
  previews,
  posts,
  issues,
  onSplitThread,
  onSplitMedia,
}: {
  previews: NetworkPreview[];
  posts: Post[];
  issues: Issue[];
  /** Split the thread (undefined) or one network's own text into posts that fit. */
  onSplitThread: ((platform?: Platform) => void) | undefined;
  onSplitMedia: (() => void) | undefined;
}) {
  if (!posts.some((p) => p.text.trim() || p.media.length)) return null;
  return (
    <section className="panel rules" aria-label="Network rules" data-rules-panel>
      <h2>Before you publish</h2>
      <ul className="rules-list">
        {previews.map((p) => (
          <li key={p.platform} data-rules={p.platform}>
            <b>{NETWORK_LABELS[p.platform]}</b>{' '}
            <span className="muted small">{line(p.platform, p.opts, p.identity.server)}</span>
            {issues
              .filter((x) => x.platform === p.platform)
              .map((x, k) => (
                <div
                  key={k}
                  className={x.kind === 'public-media' || x.kind === 'length' ? 'error small' : 'warn-text small'}
                  data-rule-issue={x.kind}
                >
                  {x.text}
                  {x.kind === 'length' && onSplitThread && networkRules(p.platform).threads && p.identity && (
                    <>
                      {' '}
                      <button
                        type="button"
                        className="small"
                        data-action="split-thread"
                        onClick={() => onSplitThread(p.platform)}
                      >
                        Split into a thread
                      </button>
                    </>
                  )}
                  {x.kind === 'images' && onSplitMedia && networkRules(p.platform).threads && (
                    <>
                      {' '}
                      <button type="button" className="small" data-action="split-images" onClick={onSplitMedia}>
                        Split the images into a thread
                      </button>
                    </>
                  )}
                </div>
              ))}
          </li>
        ))}
      </ul>
    </section>
  );
}
