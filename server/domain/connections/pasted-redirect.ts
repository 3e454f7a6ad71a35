/**
 * The pasted redirect (docs/decisions.md §3): the full address a network sent the browser to, read back into the
 * callback's query. For networks that refuse a loopback redirect URI (Threads: HTTPS only;
 * LinkedIn may refuse loopback), the person pastes what the address bar showed.
 */
import { HeraldError } from '../../core/errors.js';

export interface CallbackQuery {
  code?: string;
  state?: string;
  error?: string;
  error_description?: string;
}

const MAX_LENGTH = 8192;

function refuse(message: string): HeraldError {
  return new HeraldError('INVALID_INPUT', message, { details: [{ path: 'body.redirectUrl', message }] });
}

export function callbackQueryOf(redirectUrl: string): CallbackQuery {
  const text = redirectUrl.trim();
  if (text.length > MAX_LENGTH) throw refuse(`redirectUrl must be at most ${MAX_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw refuse(
      "redirectUrl is not a full address: copy everything in the browser's address bar, starting with https://",
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw refuse('redirectUrl must be an http(s) address');
  const q = url.searchParams;
  const one = (name: string) => q.get(name) ?? undefined;
  // Threads appends "#_" after the code; the URL parser already keeps it out of the query.
  const query: CallbackQuery = {
    code: one('code'),
    state: one('state'),
    error: one('error'),
    error_description: one('error_description') ?? one('error_reason'),
  };
  if (!query.state)
    throw refuse(
      'The pasted address has no state: copy the whole address the network sent you to, after you allowed Herald',
    );
  if (!query.code && !query.error)
    throw refuse('The pasted address has no code: copy the address from after you allowed Herald on the network');
  return query;
}
