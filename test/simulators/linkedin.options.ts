// LinkedIn's Posts API options as it checks them: content.poll (question at most 140 characters,
// 2 to 4 options of at most 30, settings.duration ONE_DAY, THREE_DAYS, SEVEN_DAYS or FOURTEEN_DAYS),
// reshareContext.parent (an existing post) and isReshareDisabledByAuthor (a boolean).
// Returns the refusal's [status, message], or the fields kept on the post.

export interface LinkedInPostOptions {
  reshareParent?: string;
  isReshareDisabledByAuthor: boolean;
}

const DURATIONS = ['ONE_DAY', 'THREE_DAYS', 'SEVEN_DAYS', 'FOURTEEN_DAYS'];

export function checkLinkedInOptions(
  b: Record<string, any>,
  postExists: (urn: string) => boolean,
): { refused: [number, string] } | { kept: LinkedInPostOptions } {
  const poll = b.content?.poll;
  if (poll !== undefined) {
    const unknown = Object.keys(poll ?? {}).filter((k) => !['question', 'options', 'settings'].includes(k));
    if (unknown.length) return { refused: [422, `ERROR :: /content/poll/${unknown[0]} :: unrecognized field found`] };
    if (typeof poll.question !== 'string' || !poll.question || [...poll.question].length > 140)
      return { refused: [422, 'ERROR :: /content/poll/question :: must be 1 to 140 characters'] };
    const options = poll.options;
    if (!Array.isArray(options) || options.length < 2 || options.length > 4)
      return { refused: [422, 'ERROR :: /content/poll/options :: a poll takes 2 to 4 options'] };
    for (const o of options)
      if (typeof o?.text !== 'string' || !o.text || [...o.text].length > 30)
        return { refused: [422, 'ERROR :: /content/poll/options/text :: must be 1 to 30 characters'] };
    if (!DURATIONS.includes(poll.settings?.duration))
      return {
        refused: [
          422,
          `ERROR :: /content/poll/settings/duration :: "${poll.settings?.duration}" is not an enum symbol`,
        ],
      };
  }
  const kept: LinkedInPostOptions = { isReshareDisabledByAuthor: false };
  if (b.isReshareDisabledByAuthor !== undefined) {
    if (typeof b.isReshareDisabledByAuthor !== 'boolean')
      return { refused: [422, 'ERROR :: /isReshareDisabledByAuthor :: not a boolean'] };
    kept.isReshareDisabledByAuthor = b.isReshareDisabledByAuthor;
  }
  if (b.reshareContext !== undefined) {
    const parent = b.reshareContext?.parent;
    if (typeof parent !== 'string' || !postExists(parent))
      return { refused: [404, `Resharing failed: ${String(parent)} does not exist`] };
    kept.reshareParent = parent;
  }
  return { kept };
}
