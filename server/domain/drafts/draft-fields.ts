/**
 * The draft columns that are not text: the list cursor, the post language and the link card
 * choice, each turned from its stored form to the contract's and back in one place.
 */
import { validLanguage } from '../../core/config.js';
import { HeraldError } from '../../core/errors.js';
import type { DraftRow } from '../../db/repos/drafts.repo.js';
import type { PostOptionsValue } from '../../../text/post-options.js';

export const parseJson = <T>(s: string, fallback: T): T => {
  try {
    return JSON.parse(s) as T;
  } catch {
    return fallback;
  }
};

export function encodeCursor(row: Pick<DraftRow, 'createdAt' | 'id'>): string {
  return Buffer.from(JSON.stringify([row.createdAt, row.id])).toString('base64url');
}

export function decodeCursor(cursor: string): [string, string] {
  const v = parseJson<unknown>(Buffer.from(cursor, 'base64url').toString('utf8'), null);
  if (!Array.isArray(v) || v.length !== 2 || typeof v[0] !== 'string' || typeof v[1] !== 'string') {
    throw new HeraldError('INVALID_INPUT', 'cursor is not one this server gave out', {
      details: [{ path: 'query.cursor', message: 'use nextCursor from the previous page' }],
    });
  }
  return [v[0], v[1]];
}

/** A draft's link card as the API shows it (docs/decisions.md §16). */
export type LinkCardChoice = false | { url: string } | null;

/** The stored language in canonical BCP 47 ("pt-br" → "pt-BR"); null stays null (the default). */
export function languageIn(tag: string | null | undefined, path = 'language'): string | null {
  if (tag === null || tag === undefined || tag === '') return null;
  const canonical = validLanguage(tag);
  if (!canonical)
    throw new HeraldError('INVALID_INPUT', `"${tag}" is not a language tag (BCP 47, e.g. en, de, pt-BR)`, {
      details: [{ path, message: 'not BCP 47' }],
    });
  return canonical;
}

export function linkCardIn(choice: LinkCardChoice | undefined): string | null {
  if (choice === null || choice === undefined) return null;
  if (choice === false) return 'false';
  return JSON.stringify({ url: new URL(choice.url).href });
}

export function linkCardOut(stored: string | null): LinkCardChoice {
  if (stored === null || stored === '') return null;
  if (stored === 'false') return false;
  const v = parseJson<{ url?: unknown } | null>(stored, null);
  return v && typeof v.url === 'string' ? { url: v.url } : null;
}

/** Options as stored: only the ones set (null and absent mean the network's default); none at all is null. */
export function optionsIn(options: PostOptionsValue | null | undefined): string | null {
  if (!options) return null;
  const kept = Object.fromEntries(Object.entries(options).filter(([, v]) => v !== null && v !== undefined));
  return Object.keys(kept).length > 0 ? JSON.stringify(kept) : null;
}

export function optionsOut(stored: string | null): PostOptionsValue | null {
  if (!stored) return null;
  const v = parseJson<PostOptionsValue | null>(stored, null);
  return v && typeof v === 'object' ? v : null;
}
