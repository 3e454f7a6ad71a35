/**
 * Validation every draft file format ends with: the zod model, then the rule that a time with no
 * offset needs a time zone. Its refusals are 400 INVALID_INPUT with a detail per problem.
 */
import { draftFile, type DraftFile } from '../../contracts/draft-files.js';
import { HeraldError, type ErrorDetail } from '../../core/errors.js';
import { timeProblem } from './draft-file-time.js';

/** A refused file: the message is capped so one huge file cannot make a huge error. */
export const invalid = (message: string, details: ErrorDetail[]) =>
  new HeraldError('INVALID_INPUT', message.slice(0, 500), { details });

/** Validates the model; a time with no offset needs timeZone, and is turned into an instant. */
export function checkFile(value: unknown, where: string): DraftFile {
  const r = draftFile.safeParse(value);
  if (!r.success) {
    const details = r.error.issues.map((i) => ({ path: [where, ...i.path.map(String)].join('.'), message: i.message }));
    throw invalid(`Invalid draft file: ${details.map((d) => `${d.path} ${d.message}`).join('; ')}`, details);
  }
  const file = r.data;
  const why = timeProblem(file.scheduledFor ?? null, file.timeZone ?? null);
  if (why) throw invalid(`Invalid draft file: scheduledFor ${why}`, [{ path: `${where}.scheduledFor`, message: why }]);
  return file;
}
