/**
 * The links a post's text holds, as link cards see them: http(s) URLs written out with their
 * scheme, in order, each once. Trailing sentence punctuation and an unbalanced closing bracket
 * are not part of the link (as Bluesky's and Mastodon's own detection has it).
 */
const LINK = /\bhttps?:\/\/[^\s<>"'`]+/gi;

function trimLink(raw: string): string {
  let url = raw;
  for (;;) {
    const last = url[url.length - 1];
    if (/[.,;:!?]/.test(last)) {
      url = url.slice(0, -1);
      continue;
    }
    if (last === ')' && (url.match(/\(/g)?.length ?? 0) < (url.match(/\)/g)?.length ?? 0)) {
      url = url.slice(0, -1);
      continue;
    }
    return url;
  }
}

/** Every distinct http(s) link in `text`, in order of appearance. */
export function linksIn(text: string): string[] {
  const seen = new Set<string>();
  for (const m of text.matchAll(LINK)) {
    const url = trimLink(m[0]);
    if (/^https?:\/\/[^/?#]+\.[^/?#]+/i.test(url) || /^https?:\/\/(localhost|\[[0-9a-f:]+\])(:\d+)?(\/|$)/i.test(url))
      seen.add(url);
  }
  return [...seen];
}

/** The first link of `text`, or null. */
export function firstLink(text: string): string | null {
  return linksIn(text)[0] ?? null;
}
