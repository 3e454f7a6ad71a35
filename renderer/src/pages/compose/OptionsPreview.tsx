/**
 * What one network's preview shows of the post options: the poll as that network draws its
 * choices, the content warning over the text, and, from the same table the server uses
 * (text/post-options.ts), each option the network drops and each that stops the post there.
 */
import {
  optionsVerdict,
  hasOptions,
  type OptionsVerdict,
  type Platform,
  type PostOptionsValue,
} from '../../../../text/index';
import { linksOf } from './preview/analysis';
import type { Identity } from './preview/types';

type Posts = readonly { text: string; media: readonly unknown[] }[];
// One network's posts are the same array for the previews' validity and for drawing them.
const verdicts = new WeakMap<Posts, { platform: Platform; options: unknown; handle?: string; v: OptionsVerdict }>();
function verdictOf(
  platform: Platform,
  options: PostOptionsValue | null | undefined,
  posts: Posts,
  handle?: string,
): OptionsVerdict {
  const last = verdicts.get(posts);
  if (last && last.platform === platform && last.options === options && last.handle === handle) return last.v;
  const texts = posts.map((p) => p.text);
  const firstMedia = posts[0]?.media.length ?? 0;
  const v = optionsVerdict(platform, options, { texts, firstMedia, links: linksOf, handle });
  verdicts.set(posts, { platform, options, handle, v });
  return v;
}

/** Previews marked invalid where the options (or Threads' 5 links) stop the post, as the server does. */
export function withOptions<P extends { platform: Platform; posts: Posts; valid: boolean; identity?: Identity }>(
  previews: P[],
  options: PostOptionsValue | null | undefined,
): P[] {
  // Threads' link count applies without options too.
  if (!options && !previews.some((p) => p.platform === 'threadblog')) return previews;
  return previews.map((p) =>
    p.valid && verdictOf(p.platform, options, p.posts, p.identity?.username).problems.length > 0
      ? { ...p, valid: false, optionsBlock: true }
      : p,
  );
}

export function OptionsPreview({
  platform,
  options,
  posts,
  username,
}: {
  platform: Platform;
  options: PostOptionsValue | null | undefined;
  posts: Posts;
  /** The account the posts go from (Threads quotes only its own posts). */
  username?: string;
}) {
  const { dropped, problems } = verdictOf(platform, options, posts, username);
  if (!hasOptions(options) && problems.length === 0) return null;
  const o = options ?? {};
  const pollShown = o.poll && !dropped.some((d) => d.option === 'poll') && problems.every((p) => p.option !== 'poll');
  const cwShown = o.contentWarning && (platform === 'fedblog' || platform === 'threadblog');
  return (
    <div className="pv-options" data-options-preview={platform}>
      {cwShown && (
        <p className="pv-cw" data-preview-cw>
          {platform === 'fedblog' ? `CW: ${o.contentWarning}` : 'Spoiler: the text is hidden until tapped'}
        </p>
      )}
      {pollShown && (
        <ul className="pv-poll" data-preview-poll aria-label="Poll">
          {o.poll!.choices.map((c, i) => (
            <li key={i}>{c || `Choice ${i + 1}`}</li>
          ))}
          <li className="muted small">{durationLabel(o.poll!.durationMinutes)} left</li>
        </ul>
      )}
      {problems.map((p, i) => (
        <p key={`p${i}`} className="error small" data-options-problem={p.option}>
          {p.reason}
        </p>
      ))}
      {dropped.length > 0 && (
        <ul className="pv-dropped small muted" data-options-dropped>
          {dropped.map((d, i) => (
            <li key={i}>
              Not sent: <strong>{d.option}</strong> ({d.reason})
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

const durationLabel = (m: number) => (m % 1440 === 0 ? `${m / 1440} d` : m % 60 === 0 ? `${m / 60} h` : `${m} min`);
