// LinkedIn "little text": which part of a commentary survives. Reserved characters must be
// backslash-escaped; LinkedIn accepts an unescaped one but silently cuts the text there
// (docs/decisions.md §19.5). Mentions `@[Name](urn:li:person:ID)`, hashtags `#tag` and the template
// `{hashtag|\#|tag}` are intentional markup and stay.

const RESERVED = new Set(['\\', '|', '{', '}', '@', '[', ']', '(', ')', '<', '>', '#', '*', '_', '~']);
const MENTION = /^@\[[^\]\\]*\]\(urn:li:(?:person|organization):[^)\s]+\)/;
const HASHTAG_TEMPLATE = /^\{hashtag\|\\#\|[^}]+\}/;
const HASHTAG = /^#[\p{L}\p{N}_]+/u;

export interface LittleTextResult {
  /** The commentary as LinkedIn keeps it. */
  kept: string;
  /** True when an unescaped reserved character cut the text. */
  truncated: boolean;
  /** The text a reader sees: escapes removed, markup left as is. */
  visible: string;
}

export function applyLittleText(text: string): LittleTextResult {
  let visible = '';
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === '\\') {
      const next = text[i + 1];
      if (next !== undefined && RESERVED.has(next)) {
        visible += next;
        i += 2;
        continue;
      }
      return { kept: text.slice(0, i), truncated: true, visible };
    }
    if (!RESERVED.has(ch)) {
      visible += ch;
      i += 1;
      continue;
    }
    const rest = text.slice(i);
    const markup = MENTION.exec(rest) ?? HASHTAG_TEMPLATE.exec(rest) ?? (ch === '#' ? HASHTAG.exec(rest) : null);
    if (markup) {
      visible += markup[0];
      i += markup[0].length;
      continue;
    }
    return { kept: text.slice(0, i), truncated: true, visible };
  }
  return { kept: text, truncated: false, visible };
}
