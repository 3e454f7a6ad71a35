/** "Publish now?": what goes where, and what will not work, before anything is sent. */
import { NETWORK_LABELS, type Platform } from '../../../../text/index';
import { Overlay } from '../../components/Overlay';
import type { Issue } from './Rules';

export interface Target {
  uuid: string;
  platform: string;
  username: string;
}

export function ConfirmPublish({
  targets,
  postsOf,
  issues,
  onPublish,
  onClose,
}: {
  targets: Target[];
  postsOf: (platform: Platform) => number;
  issues: Issue[];
  /** Publish to these accounts. */
  onPublish: (accountIds: string[]) => void;
  onClose: () => void;
}) {
  // Networks that would fail (Threads with media kept only in Herald) can be left out.
  const failing = new Set(issues.filter((x) => x.kind === 'public-media').map((x) => x.platform));
  const others = targets.filter((t) => !failing.has(t.platform as Platform));
  return (
    <Overlay title="Publish now?" name="confirm-publish" onClose={onClose}>
      <ul className="plain" data-confirm-targets>
        {targets.map((t) => {
          const n = postsOf(t.platform as Platform);
          return (
            <li key={t.uuid} data-confirm-target={t.platform}>
              {NETWORK_LABELS[t.platform as Platform] ?? t.platform} @{t.username}: {n} post{n === 1 ? '' : 's'}
              {failing.has(t.platform as Platform) && (
                <span className="error small"> (would fail: its media need a media relay, set up in Settings)</span>
              )}
            </li>
          );
        })}
      </ul>
      <p className="muted small">Posts go out at once and cannot be unsent from Herald.</p>
      <div className="row" style={{ justifyContent: 'flex-end' }}>
        <button type="button" onClick={onClose}>
          Cancel
        </button>
        {failing.size > 0 && others.length > 0 && (
          <button type="button" onClick={() => onPublish(others.map((t) => t.uuid))} data-action="publish-others">
            Publish to the others
          </button>
        )}
        <button
          type="button"
          className="primary"
          data-autofocus
          data-action="confirm-publish"
          onClick={() => onPublish(targets.map((t) => t.uuid))}
        >
          Publish
        </button>
      </div>
    </Overlay>
  );
}
