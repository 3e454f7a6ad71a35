/**
 * Under a video or a document in the editor: its title (LinkedIn shows it) and what each selected
 * network does with it before anything is sent: a video's length and size against each network's
 * limits, "LinkedIn only" for a document (the same rules the server's verdicts use, text/).
 */
import { NETWORK_LABELS, PLATFORMS, type Platform } from '../../../../text/index';
import { megabytes as mb, videoLimitFor, videoProblem, type VideoLimit } from '../../../../text/video-limits';
import { client } from '../../api';
import type { MediaRef } from './model';

const span = (ms: number) => (ms >= 60_000 ? `${Math.round(ms / 6_000) / 10} min` : `${Math.round(ms / 100) / 10} s`);

function limitText(l: VideoLimit): string {
  const length = l.maxMs === undefined ? '' : l.minMs ? `${span(l.minMs)}–${span(l.maxMs)}` : `≤ ${span(l.maxMs)}`;
  return [length, `≤ ${mb(l.maxBytes)}`].filter(Boolean).join(', ');
}

function verdicts(m: MediaRef, platforms: Platform[]): { pl: Platform; ok: boolean; text: string }[] {
  return platforms.map((pl) => {
    if (m.type === 'document')
      return pl === 'problog'
        ? { pl, ok: true, text: m.pages ? `${m.pages} pages` : 'document post' }
        : { pl, ok: false, text: 'LinkedIn only' };
    const problem = videoProblem(pl, { size: m.size, durationMs: m.durationMs });
    return { pl, ok: !problem, text: problem ? problem.replace(/^the video /, '') : limitText(videoLimitFor(pl)) };
  });
}

export function MediaKindInfo({
  m,
  label,
  platforms,
  onChange,
}: {
  m: MediaRef;
  label: string;
  platforms: Platform[];
  onChange: (m: MediaRef) => void;
}) {
  if (m.type !== 'video' && m.type !== 'document') return null;
  const rows = verdicts(m, platforms.length ? [...new Set(platforms)] : [...PLATFORMS]);
  return (
    <div className="media-kind" data-kind={m.type}>
      <input
        aria-label={`Title of ${label} (LinkedIn shows it)`}
        placeholder={m.type === 'document' ? 'Document title' : 'Video title (LinkedIn)'}
        maxLength={400}
        value={m.title ?? ''}
        onChange={(e) => onChange({ ...m, title: e.target.value })}
        onBlur={(e) => void client.updateMedia(m.mediaId, { title: e.target.value }).catch(() => undefined)}
      />
      {m.durationMs ? <div className="muted">{span(m.durationMs)} video</div> : null}
      <ul className="media-nets" aria-label={`What each network does with ${label}`}>
        {rows.map((r) => (
          <li key={r.pl} className={r.ok ? 'ok' : 'bad'} title={r.text}>
            {NETWORK_LABELS[r.pl]} {r.ok ? '✓' : '✗'} {r.text}
          </li>
        ))}
      </ul>
    </div>
  );
}
