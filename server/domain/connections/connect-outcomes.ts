/**
 * How each connection flow ended, for the app that started it: the network sends the person's
 * browser to the callback (another window, often another program), so the app asks here instead of
 * guessing from the account list, which cannot tell "connected again" or "you cancelled" from
 * "still waiting". Kept in memory for 15 minutes (a flow's state lives 10): a restart forgets
 * them, and the app then says it no longer knows rather than waiting forever.
 */
import { HeraldError } from '../../core/errors.js';

export type ConnectOutcome =
  | { status: 'waiting' }
  | {
      status: 'connected';
      accountUuid: string;
      socialSetId: string;
      alreadyConnected: boolean;
      reconnected: boolean;
      message: string;
    }
  | { status: 'failed'; error: { code: string; message: string; details?: { path: string; message: string }[] } };

const KEEP_MS = 15 * 60_000;
const MAX = 1_000;

export class ConnectOutcomes {
  private readonly map = new Map<string, { userId: string; at: number; outcome: ConnectOutcome }>();

  constructor(private readonly now: () => number) {}

  private prune(): void {
    const cutoff = this.now() - KEEP_MS;
    for (const [id, o] of this.map)
      if (o.at < cutoff || this.map.size > MAX) this.map.delete(id);
      else break;
  }

  started(userId: string, sessionId: string): void {
    this.prune();
    this.map.set(sessionId, { userId, at: this.now(), outcome: { status: 'waiting' } });
  }

  /** Records how the flow ended (only flows this process started are known). */
  ended(sessionId: string, outcome: ConnectOutcome): void {
    const o = this.map.get(sessionId);
    if (o) o.outcome = outcome;
  }

  /** The caller's flow; another user's, an old one or one from before a restart is NOT_FOUND. */
  of(userId: string, sessionId: string): ConnectOutcome {
    const o = this.map.get(sessionId);
    if (!o || o.userId !== userId || o.at < this.now() - KEEP_MS) {
      throw new HeraldError(
        'NOT_FOUND',
        'No connection flow with that session is known (it ended over 15 minutes ago, or Herald restarted): ' +
          'start connecting again',
      );
    }
    return o.outcome;
  }
}
