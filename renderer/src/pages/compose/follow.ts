/**
 * Live progress of one publish from the event stream (GET /events): each event of the draft wakes
 * one progress read; every (re)connect reads it once, catching up on what the stream missed.
 * Ends when nothing is pending or `signal` aborts (the page was left, or another publish took over).
 */
import { client } from '../../api';
import { networkName } from '../../components/ui';
import { partsTally, type TargetState } from '../../../../text/status-text';
import type { Progress } from './model';

export async function followProgress(
  jobId: string,
  draftId: string,
  ac: AbortController,
  onProgress: (p: Progress) => void,
): Promise<Progress | undefined> {
  let last: Progress | undefined;
  const refresh = async () => {
    const p = await client.publishProgress({ jobId }).catch(() => undefined);
    if (!p || ac.signal.aborted) return;
    last = p;
    onProgress(p);
    if (p.summary.pending === 0) ac.abort();
  };
  // A thread's parts going out raise no event of their own: read the progress each second meanwhile.
  const parts = setInterval(() => {
    if (last?.entries.some((e) => e.status === 'publishing' && e.parts)) void refresh();
  }, 1000);
  ac.signal.addEventListener('abort', () => clearInterval(parts));
  while (!ac.signal.aborted) {
    try {
      for await (const e of client.events({ signal: ac.signal, onOpen: () => void refresh() })) {
        if (e.type.startsWith('post.') && e.data.draftId === draftId) await refresh();
      }
    } catch {
      /* the stream dropped: reconnect (and read the progress once) below */
    }
    if (!ac.signal.aborted) await new Promise((r) => setTimeout(r, 1000));
  }
  return last;
}

/** Each account's post as the publish summary words it, a thread with how many of its parts went out. */
export const targetStates = (p: Progress): TargetState[] =>
  p.entries.map((e) => ({
    status: e.status,
    network: networkName(e.platform),
    reason: e.error,
    errorCode: e.errorCode,
    parts: e.parts && partsTally(e.parts),
  }));
