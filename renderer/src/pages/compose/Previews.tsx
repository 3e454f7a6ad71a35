/** The composer's previews: what each network receives, post by post, and its own text. */
import { useState } from 'react';
import { NETWORK_LABELS, type NetworkPost, type Platform, type Verdict } from '../../../../text/index';
import type { MediaRef } from './model';

export interface NetworkPreview { platform: Platform; posts: NetworkPost<MediaRef>[]; verdicts: Verdict[]; valid: boolean }

export function Previews({ previews, overrides, setOverride }: {
  previews: NetworkPreview[];
  overrides: Partial<Record<Platform, string>>;
  setOverride: (platform: Platform, text: string) => void;
}) {
  const [overOpen, setOverOpen] = useState<Platform | undefined>();
  return (
    <section aria-label="Previews">
      {previews.map(({ platform, posts, verdicts, valid }) => (
        <div key={platform} className="preview" data-preview={platform}>
          <h3>
            <span>{NETWORK_LABELS[platform]}{overrides[platform]?.trim() ? ' (custom text)' : ''}</span>
            <span className={valid ? 'ok' : posts.length ? 'error' : 'muted'}>{valid ? `${posts.length} post${posts.length === 1 ? '' : 's'}` : posts.length ? 'does not fit' : 'empty'}</span>
          </h3>
          {posts.map((p, i) => (
            <div key={i} className="bubble" data-bubble={i}>
              {p.text}
              {p.media.length > 0 && <div className="muted small">{p.media.length} media{p.media.some((m) => !m.altText) ? ' (add alt text)' : ''}</div>}
              <div className={`small ${verdicts[i].valid ? 'muted' : 'error'}`}>{verdicts[i].count}/{verdicts[i].limit}{verdicts[i].reason ? ` · ${verdicts[i].reason}` : ''}</div>
            </div>
          ))}
          {posts.length === 0 && <p className="muted small">Nothing to send yet.</p>}
          <button type="button" className="small" aria-expanded={overOpen === platform} onClick={() => setOverOpen(overOpen === platform ? undefined : platform)}>{overOpen === platform ? 'Close' : `Customise for ${NETWORK_LABELS[platform]}`}</button>
          {overOpen === platform && (
            <div style={{ marginTop: 8 }}>
              <textarea aria-label={`${NETWORK_LABELS[platform]} text`} rows={5} placeholder={'Own text for this network; a line holding only --- starts the next post. Empty uses the thread.'}
                value={overrides[platform] ?? ''} onChange={(e) => setOverride(platform, e.target.value)} />
            </div>
          )}
        </div>
      ))}
    </section>
  );
}
