/**
 * The post options flags of `herald draft create` and `update` (docs/decisions.md §11), read into
 * the draft's `options`. Values are checked by the server, which names a wrong one.
 */
import { Option, type Command } from 'commander';
import {
  QUOTE_CONTROLS,
  REPLY_CONTROLS,
  SELF_LABELS,
  VISIBILITIES,
  type PostOptionsValue,
} from '../text/post-options.js';
import { UsageError } from './context.js';

export interface OptionFlags {
  poll?: string;
  pollMinutes?: string;
  pollMultiple?: boolean;
  pollQuestion?: string;
  pollFallbackText?: boolean;
  replyControl?: PostOptionsValue['replyControl'];
  quoteControl?: PostOptionsValue['quoteControl'];
  cw?: string;
  sensitiveMedia?: boolean;
  selfLabels?: string;
  visibility?: PostOptionsValue['visibility'];
  topicTag?: string;
  quote?: string;
  aiGenerated?: boolean;
  paidPartnership?: boolean;
}

export function postOptionFlags(cmd: Command): Command {
  return cmd
    .option('--poll <choices>', 'a poll: 2 to 4 comma-separated choices')
    .option('--poll-minutes <n>', 'how long the poll runs, in minutes (default 1440)')
    .option('--poll-multiple', 'several choices per person (Mastodon, X takes one)')
    .option('--poll-question <text>', "LinkedIn's poll question (default: the post's text)")
    .option('--poll-fallback-text', 'on Bluesky (no polls), add the choices as numbered lines')
    .addOption(new Option('--reply-control <who>', 'who may reply').choices([...REPLY_CONTROLS]))
    .addOption(new Option('--quote-control <who>', 'who may quote').choices([...QUOTE_CONTROLS]))
    .option('--cw <text>', 'content warning (Mastodon; Threads hides the text as a spoiler)')
    .option('--sensitive-media', 'mark the media sensitive (Mastodon, Threads)')
    .option('--self-labels <labels>', `Bluesky self labels, comma-separated: ${SELF_LABELS.join(', ')}`)
    .addOption(new Option('--visibility <who>', 'who sees it (Mastodon, LinkedIn)').choices([...VISIBILITIES]))
    .option('--topic-tag <tag>', 'Threads topic tag')
    .option('--quote <url>', 'quote this post (on the network it is on)')
    .option('--ai-generated', 'X disclosure: made with AI')
    .option('--paid-partnership', 'X disclosure: paid partnership');
}

/** The options the flags give, or undefined when none was given. */
export function optionsFromFlags(f: OptionFlags): PostOptionsValue | undefined {
  const out: PostOptionsValue = {};
  if (f.poll !== undefined) {
    const minutes = f.pollMinutes === undefined ? 1440 : Number(f.pollMinutes);
    if (!Number.isInteger(minutes)) throw new UsageError('--poll-minutes takes a whole number of minutes');
    out.poll = {
      choices: f.poll.split(',').map((c) => c.trim()),
      durationMinutes: minutes,
      ...(f.pollMultiple ? { multiple: true } : {}),
      ...(f.pollQuestion ? { question: f.pollQuestion } : {}),
    };
  } else if (f.pollMinutes !== undefined || f.pollQuestion !== undefined) {
    throw new UsageError('--poll-minutes and --poll-question go with --poll');
  }
  if (f.pollFallbackText) out.pollFallback = 'text';
  if (f.replyControl) out.replyControl = f.replyControl;
  if (f.quoteControl) out.quoteControl = f.quoteControl;
  if (f.cw !== undefined) out.contentWarning = f.cw;
  if (f.sensitiveMedia) out.sensitiveMedia = true;
  if (f.selfLabels) out.selfLabels = f.selfLabels.split(',').map((l) => l.trim()) as PostOptionsValue['selfLabels'];
  if (f.visibility) out.visibility = f.visibility;
  if (f.topicTag !== undefined) out.topicTag = f.topicTag;
  if (f.quote !== undefined) out.quoteUrl = f.quote;
  if (f.aiGenerated) out.aiGenerated = true;
  if (f.paidPartnership) out.paidPartnership = true;
  return Object.keys(out).length > 0 ? out : undefined;
}
