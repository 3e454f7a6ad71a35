/**
 * Drafts as files: pure converters between the file model (contracts/draft-files.ts) and
 * Markdown, JSON and CSV text. No database, no clock, no file system: the service resolves
 * networks and media and writes drafts; the CLI reads and writes the files.
 *
 * This module holds JSON and the mapping between drafts and files, and re-exports the Markdown
 * (draft-markdown.ts), CSV (draft-csv.ts), validation and time parts, so callers have one entry.
 */
import { FILE_FORMAT, type DraftFile } from '../../contracts/draft-files.js';
import type { CreateDraftInput, Draft } from '../../contracts/drafts.js';
import type { ErrorDetail } from '../../core/errors.js';
import { plainToHtml } from '../../../text/html.js';
import type { Platform } from '../../../text/index.js';
import { platformNamed } from '../../../text/networks.js';
import { checkFile, invalid } from './draft-file-check.js';
import { instantInZone, instantOf } from './draft-file-time.js';
import { evergreenForFile } from './draft-evergreen.js';

export { checkFile } from './draft-file-check.js';
export { instantInZone, instantOf, localToInstant } from './draft-file-time.js';
export { escapePost, fromMarkdown, splitPosts, toMarkdown } from './draft-markdown.js';
export { CSV_COLUMNS, fromCsv, type CsvRow } from './draft-csv.js';

/** One draft as a JSON file, tagged with the file format so a reader knows what it holds. */
export function toJson(file: DraftFile): string {
  return `${JSON.stringify({ format: FILE_FORMAT, ...file }, null, 2)}\n`;
}

/** One draft object, an array of them, or `{drafts: [...]}`. */
export function fromJson(source: string): DraftFile[] {
  let value: unknown;
  try {
    value = JSON.parse(source.replace(/^\uFEFF/, ''));
  } catch (err) {
    throw invalid(`Broken JSON: ${(err as Error).message}`, [{ path: 'body', message: (err as Error).message }]);
  }
  const wrapped =
    value !== null &&
    typeof value === 'object' &&
    !Array.isArray(value) &&
    Array.isArray((value as { drafts?: unknown }).drafts);
  const single = !wrapped && !Array.isArray(value);
  const list: unknown[] = wrapped ? (value as { drafts: unknown[] }).drafts : Array.isArray(value) ? value : [value];
  if (list.length === 0 || list.length > 100)
    throw invalid('Give 1 to 100 drafts', [{ path: 'body', message: `${list.length} drafts` }]);
  return list.map((d, i) => checkFile(d, single ? 'body' : `body.drafts.${i}`));
}

/** The network a `networks` entry names (X, bluesky, fedblog...), or undefined for an account. */
export const networkNamed = (s: string) => platformNamed(s);

// ---- drafts <-> files ------------------------------------------------------------------------

/**
 * A draft as a file. Posts are their plain text (what every network receives); with `html` (the
 * JSON format) each post also carries its HTML content, so bold and links come back too.
 * scheduledFor is written in `timeZone` with its offset when one is given, else in UTC.
 */
export function draftToFile(
  draft: Pick<Draft, 'title' | 'scheduledFor' | 'socialSetId' | 'selectedAccountIds' | 'tweets'> &
    Partial<Pick<Draft, 'language' | 'linkCard' | 'options' | 'evergreen'>>,
  platforms: { platform: Platform; content: string }[],
  opts: { timeZone?: string; html?: boolean } = {},
): DraftFile {
  const media = draft.tweets.flatMap((t, i) =>
    t.media.map((m) => ({ post: i + 1, id: m.mediaId, ...(m.altText !== undefined ? { alt: m.altText } : {}) })),
  );
  const file: DraftFile = {
    title: draft.title,
    posts: draft.tweets.map((t) => (opts.html ? { text: t.plainText, html: t.content } : { text: t.plainText })),
  };
  if (draft.selectedAccountIds.length > 0) file.networks = [...draft.selectedAccountIds];
  if (platforms.length > 0) file.platforms = Object.fromEntries(platforms.map((p) => [p.platform, p.content]));
  if (draft.scheduledFor) {
    file.scheduledFor = opts.timeZone ? instantInZone(draft.scheduledFor, opts.timeZone) : draft.scheduledFor;
    if (opts.timeZone) file.timeZone = opts.timeZone;
  }
  if (draft.socialSetId) file.socialSetId = draft.socialSetId;
  if (draft.language) file.language = draft.language;
  if (draft.linkCard !== undefined && draft.linkCard !== null) file.linkCard = draft.linkCard;
  if (draft.options) file.options = draft.options;
  if (media.length > 0) file.media = media;
  const evergreen = evergreenForFile(draft.evergreen);
  if (evergreen) file.evergreen = evergreen;
  return file;
}

/**
 * Plain text as post content: escaped when it holds `<` or `&`, which the API would otherwise
 * read as HTML; as it is otherwise, which the API keeps as plain text, the same content without
 * a pass through the HTML sanitiser (a tenth of a CSV import's time).
 */
const asContent = (text: string) => (/[<&]/.test(text) ? plainToHtml(text) : text);

/**
 * The create body a file stands for, without its targets (the service resolves `networks`).
 * Plain text is sent as escaped HTML, so every character stays (`a <b> c` is text, not markup).
 * A media entry with a path and no id is refused: the server never reads user paths.
 */
export function fileToInput(file: DraftFile, where: string): Omit<CreateDraftInput, 'selectedAccountIds'> {
  const details: ErrorDetail[] = [];
  const media: { mediaId: string; altText?: string }[][] = file.posts.map(() => []);
  (file.media ?? []).forEach((m, i) => {
    if (m.post > file.posts.length)
      details.push({
        path: `${where}.media.${i}.post`,
        message: `there is no post ${m.post} (the draft has ${file.posts.length})`,
      });
    else if (m.id === undefined)
      details.push({
        path: `${where}.media.${i}.path`,
        message: `${m.path}: the server does not read files; upload it and give its id (herald draft import does this)`,
      });
    else media[m.post - 1].push(m.alt !== undefined ? { mediaId: m.id, altText: m.alt } : { mediaId: m.id });
  });
  if (details.length > 0)
    throw invalid(`Invalid media: ${details.map((d) => `${d.path} ${d.message}`).join('; ')}`, details);
  return {
    title: file.title ?? (file.posts[0]?.text ?? '').split('\n')[0].slice(0, 80),
    tweets: file.posts.map((p, i) => ({
      content: p.html ?? asContent(p.text),
      position: i,
      ...(media[i].length > 0 ? { media: media[i] } : {}),
    })),
    scheduledFor: instantOf(file),
    ...(file.socialSetId ? { socialSetId: file.socialSetId } : {}),
    ...(file.language ? { language: file.language } : {}),
    ...(file.linkCard !== undefined && file.linkCard !== null ? { linkCard: file.linkCard } : {}),
    ...(file.options ? { options: file.options } : {}),
    ...(file.evergreen ? { evergreen: file.evergreen } : {}),
  };
}
