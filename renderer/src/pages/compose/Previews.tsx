/**
 * The composer's previews: each selected network's posts drawn as that network draws them (its
 * components are in preview/), in the app's light or dark theme, with the network's own text.
 */
import { useRef, useState } from 'react';
import {
  joinThreadText,
  NETWORK_LABELS,
  partOptions,
  postsForNetwork,
  type CountOptions,
  type NetworkPost,
  type Platform,
  type Verdict,
} from '../../../../text/index';
import type { MediaRef } from './model';
import { OptionsPreview } from './OptionsPreview';
import type { PostOptionsValue } from '../../../../text/post-options';
import { PreviewPost } from './preview/PreviewPost';
import { usePreviewFollow } from './preview-follow';
import { mediaKeyOf, type Identity, type LinkCardData } from './preview/types';
import './preview/previews.css';

export interface NetworkPreview {
  platform: Platform;
  posts: NetworkPost<MediaRef>[];
  verdicts: Verdict[];
  valid: boolean;
  /** The account the preview shows the posts from. */
  identity: Identity;
  /** That account's counting options (a Mastodon instance's limits). */
  opts: CountOptions;
  /** The link card of each post, by position (absent: none). */
  cards?: (LinkCardData | undefined)[];
  /** What would fail on this network although the posts fit (Threads and media kept in Herald). */
  warning?: string;
  /** The posts fit, but the network cannot take them with these options (or Threads its links). */
  optionsBlock?: boolean;
}

/** The thread as `platform` gets it, as a network's own text (a line holding only --- between posts). */
const threadText = (platform: Platform, thread: readonly { text: string; media: readonly MediaRef[] }[]) =>
  joinThreadText(
    postsForNetwork(
      platform,
      thread.map((p) => ({ plainText: p.text, media: p.media })),
    ).map((p) => p.text),
  );

/** "3 posts"; on LinkedIn, which has no threads, "1 post, 2 comments". */
const sizeOf = (platform: Platform, n: number) =>
  platform === 'problog' && n > 1 ? `1 post, ${n - 1} comment${n === 2 ? '' : 's'}` : `${n} post${n === 1 ? '' : 's'}`;

/** The preview's verdict beside the network's name. */
function verdictWords(platform: Platform, valid: boolean, optionsBlock: boolean | undefined, n: number): string {
  if (valid) return sizeOf(platform, n);
  if (optionsBlock) return 'cannot go as set';
  return n ? 'does not fit' : 'empty';
}

export function Previews({
  previews,
  overrides,
  posts: thread,
  setOverride,
  options,
}: {
  previews: NetworkPreview[];
  /** The draft's post options: each preview shows what its network takes of them. */
  options?: PostOptionsValue | null;
  overrides: Partial<Record<Platform, string>>;
  /** The thread: a network's own text starts as it (as that network would get it). */
  posts: readonly { text: string; media: readonly MediaRef[] }[];
  setOverride: (platform: Platform, text: string) => void;
}) {
  const [overOpen, setOverOpen] = useState<Platform | undefined>();
  const section = useRef<HTMLElement>(null);
  usePreviewFollow(section);
  return (
    <section aria-label="Previews" ref={section}>
      {previews.map(({ platform, posts, verdicts, valid, identity, opts, cards, warning, optionsBlock }) => (
        <div key={platform} className="preview" data-preview={platform}>
          <h3>
            <span>
              {NETWORK_LABELS[platform]}
              {overrides[platform]?.trim() ? ' (custom text)' : ''}
            </span>
            <span className={valid ? 'ok' : posts.length ? 'error' : 'muted'}>
              {verdictWords(platform, valid, optionsBlock, posts.length)}
            </span>
          </h3>
          {warning && (
            <p className="error small" data-preview-warning>
              {warning}
            </p>
          )}
          <OptionsPreview platform={platform} options={options} posts={posts} username={identity.username} />
          {posts.length > 0 && (
            <div
              className={`pv-screen pv-screen-${platform}${posts.length > 6 ? ' pv-many' : ''}`}
              data-screen={platform}
            >
              {posts.map((p, i) => (
                <PreviewPost
                  key={i}
                  platform={platform}
                  identity={identity}
                  text={p.text}
                  media={p.media}
                  mediaKey={mediaKeyOf(p.media)}
                  verdict={verdicts[i]}
                  opts={partOptions(platform, i, opts)}
                  index={i}
                  total={posts.length}
                  card={cards?.[i]}
                />
              ))}
            </div>
          )}
          {posts.length === 0 && <p className="muted small">Nothing to send yet.</p>}
          <button
            type="button"
            className="small"
            aria-expanded={overOpen === platform}
            onClick={() => {
              const opening = overOpen !== platform;
              setOverOpen(opening ? platform : undefined);
              // Customising starts from the current text, not from nothing; left unchanged, it is dropped again.
              const same = threadText(platform, thread);
              if (opening && !overrides[platform]?.trim() && same.trim()) setOverride(platform, same);
              if (!opening && overrides[platform] === same) setOverride(platform, '');
            }}
          >
            {overOpen === platform ? 'Close' : `Customise for ${NETWORK_LABELS[platform]}`}
          </button>
          {overOpen === platform && (
            <div style={{ marginTop: 8 }}>
              <textarea
                aria-label={`${NETWORK_LABELS[platform]} text`}
                rows={5}
                placeholder={
                  'Own text for this network; a line holding only --- starts the next post. Empty uses the thread.'
                }
                value={overrides[platform] ?? ''}
                onChange={(e) => setOverride(platform, e.target.value)}
              />
            </div>
          )}
        </div>
      ))}
    </section>
  );
}
