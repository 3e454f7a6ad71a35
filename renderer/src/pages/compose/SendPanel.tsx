/**
 * Publish now, schedule or queue, and what came of it, in view where the buttons are. Publish
 * now always asks first (by mouse as by Ctrl+Enter). After Schedule or Add to queue the draft is
 * scheduled: Publish now is off, and the next steps are offered (a new draft, the queue).
 */
import { showShortcuts } from '../../components/Shortcuts';
import { useScrollIntoView } from '../../components/ui';
import { navigate } from '../../router';
import { FireTimes, SendProgress } from './SendProgress';
import { DstNote, PerNetworkTimes } from './Timing';
import type { Composer } from './useComposer';

/** The keyboard shortcuts the schedule note names. */
const KEYS = 'Ctrl+Enter asks to publish, Ctrl+S saves, Ctrl+N starts a new draft;';

export function SendPanel({
  k,
  canSend,
  tooLong,
  optionsBlock,
  onPublish,
}: {
  k: Composer;
  canSend: boolean;
  tooLong: boolean;
  /** The networks that cannot take the post's options as they are (each preview says why). */
  optionsBlock?: string[];
  onPublish: () => void;
}) {
  const scheduled = k.c.status === 'scheduled';
  const outcomeRef = useScrollIntoView<HTMLDivElement>(k.outcome);
  return (
    <div className="panel send-panel" style={{ marginTop: 16 }}>
      <div className="row">
        <button
          type="button"
          className="primary"
          disabled={!canSend || k.busy || scheduled}
          onClick={onPublish}
          data-action="publish"
          title={scheduled ? 'Scheduled: change the time, or cancel it in Queue' : 'Asks first (as Ctrl+Enter)'}
        >
          Publish now
        </button>
        <span className="muted small">or</span>
        <input
          type="datetime-local"
          aria-label="Schedule time"
          aria-describedby="tz"
          value={k.when}
          onChange={(e) => k.setWhen(e.target.value)}
        />
        <button type="button" disabled={!canSend || k.busy} onClick={() => void k.scheduleIt()} data-action="schedule">
          {scheduled ? 'Move to this time' : 'Schedule'}
        </button>
        <button
          type="button"
          disabled={!canSend || k.busy || scheduled}
          onClick={() => void k.queueIt()}
          data-action="queue"
          title="The next free slot of the social set"
        >
          Add to queue
        </button>
      </div>
      {k.outcome && (
        <div className="outcome" role="status" ref={outcomeRef} data-outcome={k.outcome.kind}>
          <p style={{ margin: 0 }}>{k.outcome.text}</p>
          <div className="row" style={{ marginTop: 8 }}>
            <button type="button" className="primary" onClick={k.startNew} data-action="new-after">
              New draft
            </button>
            {k.outcome.kind !== 'published' && (
              <button type="button" onClick={() => navigate('queue')} data-action="view-queue">
                View in Queue
              </button>
            )}
            {k.outcome.kind === 'published' && (
              <button type="button" onClick={() => navigate('history')} data-action="view-history">
                View in History
              </button>
            )}
          </div>
        </div>
      )}
      <label className="small row" style={{ gap: 6, marginTop: 8, flexWrap: 'nowrap' }}>
        <input
          type="checkbox"
          checked={!!k.perNetwork}
          onChange={(e) => k.setPerNetwork(e.target.checked ? {} : undefined)}
          data-per-network-toggle
        />{' '}
        A different time per network
      </label>
      {k.perNetwork && (
        <PerNetworkTimes
          targets={k.targets}
          times={k.perNetwork}
          fallback={k.when}
          onChange={(id, v) => k.setPerNetwork((p) => ({ ...p, [id]: v }))}
        />
      )}
      <label className="small row" style={{ gap: 6, marginTop: 8, flexWrap: 'nowrap' }}>
        <input type="checkbox" checked={k.jitter} onChange={(e) => k.setJitter(e.target.checked)} /> Spread each
        account&apos;s post by up to ±3 min (jitter)
      </label>
      <p className="muted small" id="tz" style={{ margin: '8px 0 0' }}>
        Times are in {k.setZone}.
        <DstNote zone={k.setZone} value={k.when} /> {KEYS}{' '}
        <button type="button" className="linklike" onClick={showShortcuts} data-action="shortcuts">
          ? all shortcuts
        </button>
      </p>
      {tooLong && (
        <p className="error small" role="alert">
          Some posts do not fit a network; see the previews.
        </p>
      )}
      {optionsBlock && optionsBlock.length > 0 && !tooLong && (
        <p className="error small" role="alert" data-options-block>
          {optionsBlock.join(' and ')} cannot take this post as it is;{' '}
          {optionsBlock.length > 1 ? 'their previews say' : 'its preview says'} why.
        </p>
      )}
      {!k.targets.length && k.accounts.data && (
        <p className="muted small">Pick at least one account to publish or schedule.</p>
      )}
      {k.progress && <SendProgress progress={k.progress} accounts={k.accounts.data} />}
      <FireTimes schedules={k.schedules.data ?? []} requested={k.requested} />
    </div>
  );
}
