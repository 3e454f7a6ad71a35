/**
 * The API's answers in the composer's words: a field path ("targetAccounts.0.scheduledFor",
 * "body.tweets.0.content") becomes the part or account it names ("The time for X @me", "Post 1").
 */
import { HeraldError, message } from '../../api';
import { networkName } from '../../components/ui';

type Target = { platform: string; username: string };

const FIELDS = [
  'targetAccounts',
  'tweets',
  'platforms',
  'scheduledFor',
  'selectedAccountIds',
  'templateId',
  'title',
  'language',
  'linkCard',
];
const PATH = new RegExp(`\\b(?:body\\.)?(?:${FIELDS.join('|')})(?:\\.\\w+)*`, 'g');

/** The words for one field path, or undefined when the path is not one the composer knows. */
export function fieldName(path: string, targets: readonly Target[]): string | undefined {
  const p = path.replace(/^body\./, '');
  let m: RegExpExecArray | null;
  if ((m = /^targetAccounts\.(\d+)(?:\.(\w+))?$/.exec(p))) {
    const a = targets[Number(m[1])];
    const who = a ? `${networkName(a.platform)} @${a.username}` : `account ${Number(m[1]) + 1}`;
    return m[2] === 'scheduledFor' ? `The time for ${who}` : who;
  }
  if ((m = /^tweets\.(\d+)\.media\.(\d+)(?:\.altText)?/.exec(p))) {
    return `Post ${Number(m[1]) + 1}, media ${Number(m[2]) + 1}${p.endsWith('altText') ? ' (alt text)' : ''}`;
  }
  if ((m = /^tweets\.(\d+)/.exec(p))) return `Post ${Number(m[1]) + 1}`;
  if (p === 'tweets') return 'The posts';
  if ((m = /^platforms\.(\d+)/.exec(p))) return 'A network’s own text';
  if (p === 'scheduledFor') return 'The time';
  if (p === 'selectedAccountIds' || p.startsWith('selectedAccountIds.')) return 'The accounts';
  if (p === 'templateId') return 'The template';
  if (p === 'title') return 'The title';
  if (p === 'language') return 'The language';
  if (p === 'linkCard' || p.startsWith('linkCard.')) return 'The link card';
  return undefined;
}

const PAST = /^(in the past|must be in the future)$/;

/** An error as the composer shows it: no field paths, each problem named by its part or account. */
export function humanError(err: unknown, targets: readonly Target[]): string {
  if (err instanceof HeraldError && err.details?.length) {
    const named = err.details.map((d) => {
      const name = fieldName(d.path, targets);
      if (!name) return undefined;
      return PAST.test(d.message) ? `${name} is in the past: pick a time in the future.` : `${name}: ${d.message}.`;
    });
    if (named.every(Boolean)) return [...new Set(named)].join(' ').replace(/\.\.$/, '.');
  }
  const text = message(err).replace(/^Invalid (body|query): /, '');
  return text
    .replace(PATH, (path) => fieldName(path, targets) ?? path)
    .replace(/^(.+?) must be in the future/, '$1 is in the past: pick a time in the future');
}
