/**
 * Post options written once (poll, who may reply or quote, content warning, labels, visibility,
 * topic, quote) and the one table of what each network can take. The composer, the networks
 * endpoint, the dry run and publishing all call `optionsVerdict`, so the `dropped` list and the
 * refusals are the same everywhere. An option left at the network's default is never "dropped".
 */
import { graphemeCount } from './counting.js';
import { linksIn } from './links.js';
import { NETWORK_LABELS, type Platform } from './networks.js';
import { parseQuoteUrl } from './quote-url.js';

export const REPLY_CONTROLS = ['everyone', 'following', 'followers', 'mentioned', 'nobody'] as const;
export const QUOTE_CONTROLS = ['everyone', 'followers', 'nobody'] as const;
export const VISIBILITIES = ['public', 'unlisted', 'followers'] as const;
export const SELF_LABELS = ['porn', 'sexual', 'nudity', 'graphic-media'] as const;
export type ReplyControl = (typeof REPLY_CONTROLS)[number];
export type QuoteControl = (typeof QUOTE_CONTROLS)[number];
export type Visibility = (typeof VISIBILITIES)[number];
export type SelfLabel = (typeof SELF_LABELS)[number];

/** Draft-wide bounds: the widest any network takes; each network's own is checked per network. */
export const POLL_LIMITS = {
  minChoices: 2,
  maxChoices: 4,
  /** Mastodon's default per-choice length, the longest of the five. */
  choiceMax: 50,
  minMinutes: 5,
  /** 30 days, about Mastodon's default maximum. */
  maxMinutes: 43_200,
  questionMax: 140,
} as const;
export const CONTENT_WARNING_MAX = 500;
export const TOPIC_TAG_MAX = 50;

export interface PollOption {
  choices: string[];
  durationMinutes: number;
  multiple?: boolean;
  /** LinkedIn's poll question; without it the post's text when it fits. */
  question?: string;
}

export interface PostOptionsValue {
  poll?: PollOption | null;
  /** Bluesky has no polls: "text" appends the choices as numbered lines there. */
  pollFallback?: 'text' | null;
  replyControl?: ReplyControl | null;
  quoteControl?: QuoteControl | null;
  contentWarning?: string | null;
  sensitiveMedia?: boolean | null;
  selfLabels?: SelfLabel[] | null;
  visibility?: Visibility | null;
  topicTag?: string | null;
  quoteUrl?: string | null;
  aiGenerated?: boolean | null;
  paidPartnership?: boolean | null;
}
export type OptionName = keyof PostOptionsValue;

export interface DroppedOption {
  /** The option, or `links` for Threads' link count. */
  option: OptionName | 'links';
  reason: string;
}

/** A network's poll limits (Mastodon's come from its instance). */
export interface NetworkPollLimits {
  maxChoices: number;
  choiceMax: number;
  minMinutes: number;
  maxMinutes: number;
}

/** What each network can take: true = sent as is; a string = not sent, and why. */
interface Capability {
  poll: true | string;
  replyControl: Partial<Record<ReplyControl, true | string>>;
  quoteControl: Partial<Record<QuoteControl, true | string>>;
  contentWarning: true | string;
  sensitiveMedia: true | string;
  selfLabels: true | string;
  visibility: Partial<Record<Visibility, true | string>>;
  topicTag: true | string;
  disclosure: true | string;
  pollLimits?: NetworkPollLimits;
}

const noReplyControl = (n: string) => `${n} has no setting for who may reply`;
const noQuoteControl = (n: string) => `${n} has no setting for who may quote`;
const noVisibility = (n: string) => `${n} posts are always public`;

export const CAPABILITIES: Record<Platform, Capability> = {
  microblog: {
    poll: true,
    replyControl: {
      everyone: true,
      following: true,
      mentioned: true,
      followers: 'X has no "followers may reply" setting',
      nobody: 'X has no "nobody may reply" setting',
    },
    quoteControl: { followers: noQuoteControl('X'), nobody: noQuoteControl('X') },
    contentWarning: 'X has no content warning for a post',
    sensitiveMedia: 'X takes sensitive media as an account setting, not per post',
    selfLabels: 'self labels are Bluesky labels',
    visibility: { unlisted: noVisibility('X'), followers: noVisibility('X') },
    topicTag: 'topic tags are a Threads feature',
    disclosure: true,
    pollLimits: { maxChoices: 4, choiceMax: 25, minMinutes: 5, maxMinutes: 10_080 },
  },
  skyblog: {
    poll: 'Bluesky has no polls',
    replyControl: { everyone: true, following: true, followers: true, mentioned: true, nobody: true },
    quoteControl: {
      everyone: true,
      nobody: true,
      followers: 'Bluesky can only turn quoting off for everyone',
    },
    contentWarning: 'Bluesky has no content warning text: choose a self label instead',
    sensitiveMedia: 'Bluesky marks media with a self label: choose one',
    selfLabels: true,
    visibility: { unlisted: noVisibility('Bluesky'), followers: noVisibility('Bluesky') },
    topicTag: 'topic tags are a Threads feature',
    disclosure: 'disclosure flags are an X feature',
  },
  fedblog: {
    poll: true,
    replyControl: Object.fromEntries(
      (['following', 'followers', 'mentioned', 'nobody'] as const).map((k) => [k, noReplyControl('Mastodon')]),
    ),
    quoteControl: { everyone: true, followers: true, nobody: true },
    contentWarning: true,
    sensitiveMedia: true,
    selfLabels: 'self labels are Bluesky labels; Mastodon takes the content warning',
    visibility: { public: true, unlisted: true, followers: true },
    topicTag: 'topic tags are a Threads feature',
    disclosure: 'disclosure flags are an X feature',
    pollLimits: { maxChoices: 4, choiceMax: 50, minMinutes: 5, maxMinutes: 43_829 },
  },
  threadblog: {
    poll: true,
    replyControl: { everyone: true, following: true, followers: true, mentioned: true, nobody: true },
    quoteControl: { followers: noQuoteControl('Threads'), nobody: noQuoteControl('Threads') },
    contentWarning: true,
    sensitiveMedia: true,
    selfLabels: 'self labels are Bluesky labels',
    visibility: { unlisted: noVisibility('Threads'), followers: noVisibility('Threads') },
    topicTag: true,
    disclosure: 'disclosure flags are an X feature',
    pollLimits: { maxChoices: 4, choiceMax: 25, minMinutes: 5, maxMinutes: 1440 },
  },
  problog: {
    poll: true,
    replyControl: Object.fromEntries(
      (['following', 'followers', 'mentioned', 'nobody'] as const).map((k) => [k, noReplyControl('LinkedIn')]),
    ),
    quoteControl: {
      everyone: true,
      nobody: true,
      followers: 'LinkedIn can only turn resharing off for everyone',
    },
    contentWarning: 'LinkedIn has no content warning',
    sensitiveMedia: 'LinkedIn has no sensitive media flag',
    selfLabels: 'self labels are Bluesky labels',
    visibility: { public: true, followers: true, unlisted: 'LinkedIn has no unlisted posts' },
    topicTag: 'topic tags are a Threads feature',
    disclosure: 'disclosure flags are an X feature',
    pollLimits: { maxChoices: 4, choiceMax: 30, minMinutes: 1440, maxMinutes: 20_160 },
  },
};

/** Threads refuses a post with more distinct links than this. */
export const THREADS_MAX_LINKS = 5;
/** LinkedIn's poll durations, in days; a duration is rounded up to the next. */
export const LINKEDIN_POLL_DAYS = [1, 3, 7, 14] as const;

/** What one network gets of a draft's options: what it drops, and what makes its post invalid. */
export interface OptionsVerdict {
  dropped: DroppedOption[];
  /** Non-empty: the post cannot be sent to this network (each names the option and why). */
  problems: DroppedOption[];
}

export interface OptionsFacts {
  /** The text of each post that network gets, in order. */
  texts: string[];
  /** How many media items the first post carries. */
  firstMedia: number;
  /** Mastodon: the instance's poll limits (else the table's). */
  pollLimits?: Partial<NetworkPollLimits>;
  /** linksIn, or a caller's remembered answers of it (the composer asks on every key). */
  links?: (text: string) => string[];
  /** The account's username: Threads quotes only the account's own posts. Absent: not checked. */
  handle?: string | null;
}

/** Whether options hold anything at all. */
export function hasOptions(o: PostOptionsValue | null | undefined): o is PostOptionsValue {
  return !!o && Object.values(o).some((v) => v !== null && v !== undefined && v !== false);
}

const sameUser = (a: string | undefined, b: string) => !!a && a.toLowerCase() === b.replace(/^@/, '').toLowerCase();

export function optionsVerdict(
  platform: Platform,
  options: PostOptionsValue | null | undefined,
  facts: OptionsFacts,
): OptionsVerdict {
  const dropped: DroppedOption[] = [];
  const problems: DroppedOption[] = [];
  const name = NETWORK_LABELS[platform];
  if (platform === 'threadblog') {
    facts.texts.forEach((t, i) => {
      const n = (facts.links ?? linksIn)(t).length;
      if (n > THREADS_MAX_LINKS) {
        const which = facts.texts.length > 1 ? `post ${i + 1} has` : 'the post has';
        problems.push({ option: 'links', reason: `${which} ${n} links; Threads takes at most ${THREADS_MAX_LINKS}` });
      }
    });
  }
  if (!options) return { dropped, problems };
  const cap = CAPABILITIES[platform];
  const drop = (option: OptionName, reason: true | string | undefined) => {
    if (typeof reason === 'string') dropped.push({ option, reason });
  };
  const o = options;
  if (o.poll) {
    if (typeof cap.poll === 'string') {
      if (platform === 'skyblog' && o.pollFallback === 'text')
        dropped.push({ option: 'poll', reason: 'Bluesky has no polls: the choices are added as numbered lines' });
      else
        problems.push({
          option: 'poll',
          reason: `${cap.poll}: remove the poll, or set pollFallback "text" to add the choices as numbered lines`,
        });
    } else pollProblems(platform, o.poll, o, facts, problems, dropped);
  }
  if (o.replyControl) drop('replyControl', cap.replyControl[o.replyControl]);
  if (o.quoteControl) drop('quoteControl', cap.quoteControl[o.quoteControl]);
  if (o.contentWarning) drop('contentWarning', cap.contentWarning);
  if (o.sensitiveMedia) drop('sensitiveMedia', cap.sensitiveMedia);
  if (o.selfLabels && o.selfLabels.length > 0) drop('selfLabels', cap.selfLabels);
  if (o.visibility) drop('visibility', cap.visibility[o.visibility]);
  if (o.topicTag) drop('topicTag', cap.topicTag);
  if (o.aiGenerated) drop('aiGenerated', cap.disclosure);
  if (o.paidPartnership) drop('paidPartnership', cap.disclosure);
  if (o.quoteUrl) {
    const quoted = parseQuoteUrl(o.quoteUrl);
    if (!quoted || quoted.platform !== platform) {
      const of = quoted ? NETWORK_LABELS[quoted.platform] : 'another network';
      dropped.push({ option: 'quoteUrl', reason: `${name} can quote only ${name} posts; this is a post on ${of}` });
    } else if (platform === 'fedblog' && facts.firstMedia > 0) {
      problems.push({ option: 'quoteUrl', reason: 'Mastodon takes a quote or media on a post, not both' });
    } else if (platform === 'threadblog' && facts.handle && !sameUser(quoted.author, facts.handle)) {
      // Threads quotes by post id, which only the account's own posts can be looked up for.
      problems.push({
        option: 'quoteUrl',
        reason:
          `Threads quotes only this account's own posts, and this is @${quoted.author}'s: quote it in the ` +
          'Threads app, or remove the quote',
      });
    }
  }
  return { dropped, problems };
}

function pollProblems(
  platform: Platform,
  poll: PollOption,
  o: PostOptionsValue,
  facts: OptionsFacts,
  problems: DroppedOption[],
  dropped: DroppedOption[],
) {
  const name = NETWORK_LABELS[platform];
  const limits = { ...CAPABILITIES[platform].pollLimits!, ...facts.pollLimits };
  if (facts.firstMedia > 0)
    problems.push({ option: 'poll', reason: `${name} takes a poll or media on a post, not both` });
  if (poll.choices.length > limits.maxChoices)
    problems.push({ option: 'poll', reason: `${name} takes at most ${limits.maxChoices} choices` });
  poll.choices.forEach((c, i) => {
    const n = graphemeCount(c);
    if (n > limits.choiceMax)
      problems.push({
        option: 'poll',
        reason: `choice ${i + 1} has ${n} characters; ${name} takes at most ${limits.choiceMax}`,
      });
  });
  if (poll.durationMinutes > limits.maxMinutes)
    problems.push({
      option: 'poll',
      reason: `the poll runs ${poll.durationMinutes} minutes; ${name} takes at most ${limits.maxMinutes}`,
    });
  else if (poll.durationMinutes < limits.minMinutes && platform !== 'problog' && platform !== 'threadblog')
    problems.push({
      option: 'poll',
      reason: `the poll runs ${poll.durationMinutes} minutes; ${name} takes at least ${limits.minMinutes}`,
    });
  if (platform === 'microblog' && o.quoteUrl && parseQuoteUrl(o.quoteUrl)?.platform === 'microblog')
    problems.push({ option: 'poll', reason: 'X takes a poll or a quote on a post, not both' });
  if (platform === 'problog') {
    const question = poll.question ?? facts.texts[0] ?? '';
    const n = graphemeCount(question.trim());
    if (!poll.question && n > POLL_LIMITS.questionMax)
      problems.push({
        option: 'poll',
        reason:
          `LinkedIn asks the post's text as the poll question, at most ${POLL_LIMITS.questionMax} characters ` +
          `(this one has ${n}): give poll.question`,
      });
    if (n === 0) problems.push({ option: 'poll', reason: 'LinkedIn needs a poll question: give poll.question' });
    const days = linkedInPollDays(poll.durationMinutes);
    if (days * 1440 !== poll.durationMinutes && poll.durationMinutes <= limits.maxMinutes)
      dropped.push({ option: 'poll', reason: `LinkedIn polls run 1, 3, 7 or 14 days: this one runs ${days} days` });
  }
  if (platform === 'threadblog' && poll.durationMinutes < 1440)
    dropped.push({ option: 'poll', reason: 'Threads polls always run 24 hours' });
  if (poll.multiple && (platform === 'problog' || platform === 'threadblog'))
    dropped.push({ option: 'poll', reason: `${name} polls take one choice per person` });
}

/** LinkedIn's poll length: the duration rounded up to 1, 3, 7 or 14 days. */
export function linkedInPollDays(minutes: number): (typeof LINKEDIN_POLL_DAYS)[number] {
  return LINKEDIN_POLL_DAYS.find((d) => d * 1440 >= minutes) ?? 14;
}

/** Bluesky's poll fallback: the choices as numbered lines after the post's text. */
export function pollAsText(text: string, poll: PollOption): string {
  const lines = poll.choices.map((c, i) => `${i + 1}. ${c}`).join('\n');
  return text.trim() ? `${text}\n\n${lines}` : lines;
}
