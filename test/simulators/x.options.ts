// X's POST /2/tweets options as its API documents them: poll (2-4 options of 1-25 characters,
// duration_minutes 5-10080, never with media or a quote), reply_settings and the disclosure flags.
// Returns the refusal's [parameter, message], or the fields kept on the post.

export interface XPostOptions {
  poll?: { options: string[]; duration_minutes: number };
  reply_settings?: string;
  made_with_ai?: boolean;
  paid_partnership?: boolean;
}

const REPLY_SETTINGS = new Set(['following', 'mentionedUsers', 'subscribers', 'verified']);

export function checkXOptions(
  b: Record<string, any>,
  hasMedia: boolean,
  hasQuote: boolean,
): { refused: [string, string] } | { kept: XPostOptions } {
  const kept: XPostOptions = {};
  if (b.poll !== undefined) {
    const p = b.poll;
    const options = Array.isArray(p?.options) ? p.options : null;
    if (!options || options.length < 2 || options.length > 4)
      return { refused: ['poll.options', 'poll.options must have between 2 and 4 items'] };
    if (options.some((o: unknown) => typeof o !== 'string' || o.length < 1 || [...o].length > 25))
      return { refused: ['poll.options', 'each poll option must be 1 to 25 characters'] };
    const d = p.duration_minutes;
    if (!Number.isInteger(d) || d < 5 || d > 10080)
      return { refused: ['poll.duration_minutes', 'duration_minutes must be between 5 and 10080'] };
    if (hasMedia || hasQuote) return { refused: ['poll', 'poll, media and quote_tweet_id are mutually exclusive'] };
    kept.poll = { options, duration_minutes: d };
  }
  if (b.reply_settings !== undefined) {
    if (!REPLY_SETTINGS.has(b.reply_settings))
      return { refused: ['reply_settings', `reply_settings must be one of ${[...REPLY_SETTINGS].join(', ')}`] };
    kept.reply_settings = b.reply_settings;
  }
  for (const k of ['made_with_ai', 'paid_partnership'] as const) {
    if (b[k] === undefined) continue;
    if (typeof b[k] !== 'boolean') return { refused: [k, `${k} must be a boolean`] };
    kept[k] = b[k];
  }
  return { kept };
}
