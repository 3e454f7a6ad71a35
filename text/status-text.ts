/**
 * Every sentence Herald shows about how a post stands (progress, history, the composer's notice,
 * the log) is written here, from the real state: what happened to each account, and what happens
 * next (an automatic retry at a known instant, or the person's move). One function per view, no
 * imports, so the server, the renderer and the CLI say the same true thing; a table test
 * (test/unit/status-text.test.ts) pins every combination.
 */

export type PostState =
  | 'pending'
  | 'handed_off'
  | 'publishing'
  | 'published'
  | 'failed'
  | 'needs_review'
  | 'missed'
  | 'cancelled'
  | 'skipped';

/** One account's post as it stands. */
export interface TargetState {
  status: PostState;
  /** The network's name ("Mastodon"), for sentences about one account. */
  network?: string;
  /** What went wrong, in words; never a promise about what happens next. */
  reason?: string | null;
  /** The spec's error code when there is one (INSUFFICIENT_CREDITS, TOKEN_EXPIRED, ...). */
  errorCode?: string | null;
  /** An automatic attempt is queued for this instant (ISO); null or absent: none is. */
  nextAttemptAt?: string | null;
  /** A scheduled post not yet due: when it fires (ISO). */
  scheduledFor?: string | null;
  /** Handed off: the instance that publishes it itself ("mastodon.social"). */
  instance?: string | null;
  /** Why a post that could have been handed off is sent by Herald itself (the instance refused, a thread). */
  notice?: string | null;
  /** A thread: how many of its parts the network holds so far. */
  parts?: { sent: number; total: number } | null;
}

export interface StatusText {
  /** The whole sentence: what happened, then what happens next. */
  text: string;
  /** What happens next on its own. */
  next: string;
  /** Whether a person's Retry makes sense now: failed or missed, and no automatic attempt queued. */
  canRetry: boolean;
}

export type TimeFormat = (iso: string) => string;

const utc: TimeFormat = (iso) => `${new Date(iso).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** Strips a trailing full stop so sentences join cleanly. */
const clause = (s: string) => s.trim().replace(/[.;\s]+$/, '');

/** The person's next step after a failure nothing will retry, by its cause. */
function manualStep(code: string | null | undefined): string {
  switch (code) {
    case 'INSUFFICIENT_CREDITS':
      return "Not tried again automatically: add credits (or wait for next month's), then Retry";
    case 'TOKEN_EXPIRED':
      return 'Not tried again automatically: connect the account again, then Retry';
    case 'SPEND_CAP_REACHED':
      return 'Not tried again automatically: raise the X spend cap, then Retry';
    default:
      return 'Not tried again automatically: use Retry when the problem is fixed';
  }
}

/** One account's post: what happened and what happens next. */
export function targetStatusText(t: TargetState, time: TimeFormat = utc): StatusText {
  const on = t.network ? ` on ${t.network}` : '';
  const why = t.reason ? `: ${clause(t.reason)}` : '';
  const retryAt = t.nextAttemptAt ? time(t.nextAttemptAt) : null;
  // A thread cut short: the parts already out stay out, and only the rest is sent later.
  const cut = t.parts && t.parts.sent > 0 && t.parts.sent < t.parts.total ? t.parts : null;
  const count = cut ? `${cut.sent} of ${cut.total} parts sent` : '';
  const shown = cut && !['published', 'cancelled'].includes(t.status);
  const sent = !shown ? '' : t.status === 'publishing' ? ` (${count})` : `; ${count}`;
  const rest = !cut ? '' : cut.total - cut.sent === 1 ? 'the last part' : `the other ${cut.total - cut.sent} parts`;
  const make = (what: string, next: string, canRetry: boolean): StatusText => {
    const then = sent && next && ['failed', 'pending', 'missed'].includes(t.status) ? `${next} (${rest} only)` : next;
    return { text: then ? `${what}${sent}. ${then}.` : `${what}${sent}.`, next: then, canRetry };
  };
  switch (t.status) {
    case 'published':
      return make(`Published${on}`, '', false);
    case 'handed_off':
      return make(
        `Handed to ${t.instance || t.network || 'the network'}, which publishes it itself`,
        t.scheduledFor
          ? `Goes out at ${time(t.scheduledFor)}, also with Herald closed`
          : 'Goes out at its time, also with Herald closed',
        false,
      );
    case 'publishing':
      return make(`Sending${on}`, 'Waiting for the network to confirm', false);
    case 'pending':
      // A pending entry with a reason is a failed attempt waiting for its retry.
      if (t.reason && retryAt) return make(`Not published yet${on}${why}`, `Herald tries again at ${retryAt}`, false);
      if (retryAt) return make(`Waiting${on}`, `Herald tries at ${retryAt}`, false);
      if (t.scheduledFor)
        return make(
          `Scheduled${on}${t.notice ? ` (${clause(t.notice)})` : ''}`,
          `Sends at ${time(t.scheduledFor)}`,
          false,
        );
      return make(`Waiting to be sent${on}`, 'Sends shortly', false);
    case 'failed':
      if (retryAt) return make(`Failed${on}${why}`, `Herald tries again at ${retryAt}`, false);
      return make(`Failed${on}${why}`, manualStep(t.errorCode), true);
    case 'needs_review':
      return make(`Unconfirmed${on}${why}`, 'Check the account, then say whether it went out', false);
    case 'missed':
      return make(
        `Missed${on}${why}`,
        'Not published and not charged: schedule it again or Retry to publish now',
        !retryAt,
      );
    case 'cancelled':
      return make(`Cancelled${on}${why}`, '', false);
    case 'skipped':
      // An evergreen repeat left this network out (it refuses a text it was sent before).
      return make(`Skipped${on}${why}`, '', false);
  }
}

/**
 * A publish to several accounts, summed up in one sentence for the composer. A network skipped on
 * purpose (an evergreen repeat it refuses) is said as skipped with its reason, never counted among
 * the accounts that failed or are still to go.
 */
export function publishSummaryText(all: TargetState[], time: TimeFormat = utc): StatusText {
  const skips = all.filter((x) => x.status === 'skipped');
  const skipped = skips.map(
    (x) => `skipped${x.network ? ` on ${x.network}` : ''}${x.reason ? `: ${clause(x.reason)}` : ''}`,
  );
  const targets = all.filter((x) => x.status !== 'skipped');
  const n = targets.length;
  if (n === 0 && skips.length > 0)
    return { text: `Nothing was sent; ${skipped.join('; ')}.`, next: '', canRetry: false };
  if (n === 0)
    return { text: 'Nothing was sent: no account was chosen.', next: 'Choose at least one account', canRetry: false };
  const count = (...s: PostState[]) => targets.filter((x) => s.includes(x.status)).length;
  const published = count('published');
  const inFlight =
    count('publishing', 'handed_off') + targets.filter((x) => x.status === 'pending' && !x.reason).length;
  const retrying = targets.filter(
    (x) => (x.status === 'failed' || x.status === 'pending') && x.reason && x.nextAttemptAt,
  );
  const held = count('needs_review');
  const missed = count('missed');
  const stopped = targets.filter((x) => x.status === 'failed' && !x.nextAttemptAt).length;
  const also = skipped.map((k) => `; ${k}`).join('');
  if (inFlight > 0)
    return { text: `Publishing: ${published} of ${n} done so far${also}.`, next: 'Still sending', canRetry: false };
  if (published === n) return { text: `Published to ${plural(n, 'account')}${also}.`, next: '', canRetry: false };
  // Threads that stopped short: their sent parts stay out and only the rest goes on a retry.
  const cut = targets.filter(
    (x) => x.status !== 'published' && x.parts && x.parts.sent > 0 && x.parts.sent < x.parts.total,
  );
  const parts: string[] = [];
  parts.push(
    published === 0
      ? n === 1
        ? cut.length > 0
          ? 'Not published in full'
          : 'Not published'
        : `Not published to any of the ${n} accounts`
      : `Published to ${published} of ${n} accounts`,
  );
  const nextSteps: string[] = [];
  if (stopped > 0) {
    const single = targets.find((x) => x.status === 'failed' && !x.nextAttemptAt)!;
    parts.push(n === 1 && single.reason ? clause(single.reason) : `${stopped} failed`);
    nextSteps.push(
      n === 1
        ? manualStep(single.errorCode)
        : `${stopped === 1 ? 'it is' : 'they are'} not tried again automatically: see History to retry`,
    );
  }
  if (retrying.length > 0) {
    const soonest = retrying.map((x) => x.nextAttemptAt!).sort()[0];
    parts.push(`${retrying.length} failed for now`);
    nextSteps.push(`Herald tries ${retrying.length === 1 ? 'it' : 'them'} again from ${time(soonest)}`);
  }
  if (held > 0) {
    parts.push(`${held} unconfirmed`);
    nextSteps.push('check the account and say whether it went out (History)');
  }
  if (missed > 0) {
    parts.push(`${missed} missed`);
    nextSteps.push('schedule the missed ones again');
  }
  for (const x of cut)
    parts.push(`${n > 1 && x.network ? `${x.network}: ` : ''}${x.parts!.sent} of ${x.parts!.total} parts sent`);
  parts.push(...skipped);
  const next = nextSteps.map((s, i) => (i === 0 ? s[0].toUpperCase() + s.slice(1) : s)).join('; ');
  return { text: `${parts.join('; ')}. ${next}.`, next, canRetry: stopped > 0 };
}

/** The credits warning: how many posts the balance covers against what is scheduled. */
export function creditsWarningText(c: { balance: number; costPerPost: number; scheduledPosts: number }): string | null {
  const covers = Math.floor(Math.max(0, c.balance) / c.costPerPost);
  if (c.scheduledPosts <= covers) return null;
  return (
    `Credits for ${plural(covers, 'more post')}; ${c.scheduledPosts} scheduled. ${c.scheduledPosts - covers} ` +
    `will fail unless credits are added before they are sent.`
  );
}

/**
 * Said when posts are scheduled into a month whose credits will not cover them, counting what the
 * posts already scheduled there reserve. `month`: "this month" or "December 2026".
 */
export function creditsShortText(c: {
  posts: number;
  need: number;
  available: number;
  reserved: number;
  month: string;
}) {
  const free = Math.max(0, c.available - c.reserved);
  const reserved = c.reserved > 0 ? `, after the ${c.reserved} already reserved by scheduled posts` : '';
  const need = `${c.posts === 1 ? 'needs' : 'need'} ${c.need} credits and ${free} ${free === 1 ? 'is' : 'are'} free`;
  return (
    `Credits fall short: ${plural(c.posts, 'post')} scheduled for ${c.month} ${need}${reserved}. ` +
    'A post that fires without credits fails: add credits on the Credits page ' +
    'or raise the monthly grant in Settings.'
  );
}

/** How many of a thread's parts the network holds, of how many. */
export const partsTally = (parts: readonly { status: string }[]): { sent: number; total: number } => ({
  sent: parts.filter((p) => p.status === 'sent').length,
  total: parts.length,
});

/**
 * A thread's parts in a few words for a progress line: which part is going out while it is sent
 * ("part 4 of 5"), how many went out when it stopped short. Null for a single post.
 */
export function threadPartsText(
  status: PostState,
  parts: readonly { status: string }[] | { sent: number; total: number } | null | undefined,
): string | null {
  if (!parts) return null;
  const { sent, total } = Array.isArray(parts) ? partsTally(parts) : (parts as { sent: number; total: number });
  if (total < 2) return null;
  if (status === 'publishing') return `part ${Math.min(sent + 1, total)} of ${total}`;
  if (status === 'published' || sent === total) return `${total} parts`;
  return sent > 0 ? `${sent} of ${total} parts sent` : null;
}
