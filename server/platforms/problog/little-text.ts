/**
 * LinkedIn's "little text" (docs/decisions.md §19.5): the Posts API reads `commentary` as markup in
 * which `\ | { } @ [ ] ( ) < > # * _ ~` are reserved. Unescaped, LinkedIn may accept the post
 * and silently cut the text at the first reserved character, so every one of them is escaped
 * with a backslash (the backslash itself first, which a single pass does by construction).
 * Web links are left exactly as written so LinkedIn still recognises and links them.
 */

const RESERVED = /[\\|{}@[\]()<>#*_~]/g;
const LINK = /\bhttps?:\/\/[^\s<>"]+/gi;
/** Punctuation that usually ends the sentence, not the link. */
const TRAILING = new Set(['.', ',', ';', ':', '!', '?', "'", '"']);

const count = (s: string, ch: string) => s.split(ch).length - 1;

/** Drops trailing punctuation and closing brackets that the link does not open itself. */
function trimLink(link: string): string {
  let end = link.length;
  for (;;) {
    const last = link[end - 1];
    const head = link.slice(0, end);
    if (TRAILING.has(last)) end -= 1;
    else if (last === ')' && count(head, ')') > count(head, '(')) end -= 1;
    else if (last === ']' && count(head, ']') > count(head, '[')) end -= 1;
    else return link.slice(0, end);
  }
}

function escapePlain(text: string): string {
  return text.replace(RESERVED, (ch) => `\\${ch}`);
}

/** Text as a person wrote it → `commentary` that LinkedIn shows exactly as written. */
export function escapeLittleText(text: string): string {
  let out = '';
  let from = 0;
  for (const match of text.matchAll(LINK)) {
    const start = match.index ?? 0;
    if (start < from) continue;
    const link = trimLink(match[0]);
    out += escapePlain(text.slice(from, start)) + link;
    from = start + link.length;
  }
  return out + escapePlain(text.slice(from));
}

/** What a member sees for escaped commentary (backslash escapes removed). */
export function unescapeLittleText(commentary: string): string {
  return commentary.replace(/\\([\\|{}@[\]()<>#*_~])/g, '$1');
}
