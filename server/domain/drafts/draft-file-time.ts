/**
 * The time of a draft file: `scheduledFor` is an instant with an offset, or a wall-clock time
 * read in the file's `timeZone`. Shared by the Markdown, JSON and CSV readers so each format
 * accepts and refuses the same times.
 */
import { dateTimeProblem } from '../../contracts/common.js';
import type { DraftFile } from '../../contracts/draft-files.js';
import { isValidTimeZone, MINUTE, offsetAt, wallToInstant } from '../../../time/index.js';

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2}))?$/;

/** A wall-clock time in `zone` as an instant, by the one DST rule (time/zones.ts). */
export function localToInstant(local: string, zone: string): number {
  const m = LOCAL.exec(local)!;
  return wallToInstant(zone, Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +(m[6] ?? 0)));
}

/** An instant written in `zone` with its offset: 2026-12-01T09:30:00+01:00. */
export function instantInZone(iso: string, zone: string): string {
  const t = Date.parse(iso);
  const off = offsetAt(zone, t) / MINUTE;
  const local = new Date(t + off * MINUTE).toISOString().slice(0, 19);
  if (off === 0) return `${local}Z`;
  const abs = Math.abs(off);
  return (
    `${local}${off < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}:` +
    `${String(abs % 60).padStart(2, '0')}`
  );
}

/** Why a file's time and zone cannot be read, or undefined when they can. */
export function timeProblem(when: string | null, zone: string | null): string | undefined {
  if (zone && !isValidTimeZone(zone))
    return `names the time zone "${zone}", which is not an IANA zone (like Europe/Paris)`;
  if (!when) return undefined;
  if (LOCAL.test(when))
    return zone
      ? Number.isNaN(Date.parse(`${when.replace(' ', 'T')}Z`))
        ? 'is not a calendar date and time'
        : undefined
      : 'has no offset: add Z or +hh:mm, or give timeZone';
  return dateTimeProblem(when);
}

/** The instant (ISO, UTC) of a file's time, or null. Call after checkFile. */
export function instantOf(file: Pick<DraftFile, 'scheduledFor' | 'timeZone'>): string | null {
  if (!file.scheduledFor) return null;
  if (LOCAL.test(file.scheduledFor))
    return new Date(localToInstant(file.scheduledFor.replace(' ', 'T'), file.timeZone!)).toISOString();
  return new Date(file.scheduledFor).toISOString();
}
