/**
 * What the composer edits, kept apart from how it is drawn: the composition, unsaved-work slots,
 * the template swap (what the editor shows is what is sent), and the time helpers.
 */
import type { PostOptionsValue } from '../../../../text/post-options';
import type { MediaKind, Platform } from '../../../../text/index';
import type { client } from '../../api';
import { formatLocal, machineTimeZone } from '../../../../time/index';

export interface MediaRef {
  mediaId: string;
  altText: string;
  type: MediaKind;
  url: string;
  /** Bytes, when known (files uploaded in this session). */ size?: number;
  /** Videos and documents: what LinkedIn shows; a video's length; a document's pages (known after upload). */
  title?: string;
  durationMs?: number | null;
  pages?: number | null;
}
export interface Post {
  key: number;
  text: string;
  media: MediaRef[];
}
export interface Composition {
  draftId?: string;
  title: string;
  posts: Post[];
  socialSetId: string;
  selectedAccountIds: string[];
  templateId: string;
  overrides: Partial<Record<Platform, string>>;
  status?: string;
  /** BCP 47; null: the setting defaultLanguage. */
  language: string | null;
  /** null: a card for the first link of the first post; false: none; {url}: that page. */
  linkCard: false | { url: string } | null;
  /** Post options (poll, who may reply, content warning, ...); null: none. */
  options?: PostOptionsValue | null;
}

export type Template = { uuid: string; name: string; head_content_plain: string; tail_content_plain: string };

export const UNSAVED = 'herald.compose.unsaved';
/** Unsaved work is kept per draft (a new one has its own slot), so starting another loses none. */
export const slot = (draftId?: string) => (draftId ? `${UNSAVED}.${draftId}` : UNSAVED);
let nextKey = 1;
/** A fresh React key for a post. */
export const newKey = () => nextKey++;
export const blankPost = (text = ''): Post => ({ key: newKey(), text, media: [] });
export const blank = (): Composition => ({
  title: '',
  posts: [blankPost()],
  socialSetId: '',
  selectedAccountIds: [],
  templateId: '',
  overrides: {},
  language: null,
  linkCard: null,
});

export type Progress = Awaited<ReturnType<typeof client.publishProgress>>;

/** A datetime-local value of an instant; until the set's zone is known, in the machine's. */
export function localInput(d: Date, zone = machineTimeZone()): string {
  return formatLocal(zone, d.getTime()).local;
}

/** The posts with one template's head and tail taken out (where still present) and another's put in. */
export function swapTemplate(posts: Post[], from: Template | undefined, to: Template | undefined): Post[] {
  const out = posts.map((p) => ({ ...p }));
  const first = out[0];
  const last = out[out.length - 1];
  if (from?.head_content_plain) {
    const h = from.head_content_plain;
    if (first.text === h) first.text = '';
    else if (first.text.startsWith(`${h}\n\n`)) first.text = first.text.slice(h.length + 2);
  }
  if (from?.tail_content_plain) {
    const t = from.tail_content_plain;
    if (last.text === t) last.text = '';
    else if (last.text.endsWith(`\n\n${t}`)) last.text = last.text.slice(0, -(t.length + 2));
  }
  if (to?.head_content_plain)
    first.text = first.text ? `${to.head_content_plain}\n\n${first.text}` : to.head_content_plain;
  if (to?.tail_content_plain)
    last.text = last.text ? `${last.text}\n\n${to.tail_content_plain}` : to.tail_content_plain;
  return out;
}

/** Until the user's zone is known: the machine's (the browser's). */
export { machineTimeZone as zone };

export function offsetText(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s === 0) return 'on time';
  const abs = Math.abs(s);
  const text = abs >= 60 ? `${Math.floor(abs / 60)} min ${abs % 60 ? `${abs % 60} s` : ''}`.trim() : `${abs} s`;
  return s < 0 ? `${text} early` : `${text} late`;
}
