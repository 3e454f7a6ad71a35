/**
 * htmlparser2's Parser, loaded on first use: htmlparser2 with entities (whose decode tables are
 * built when it loads) is needed only when HTML content is written or a Mastodon status is read,
 * so start-up does not pay for it.
 */
import { createRequire } from 'node:module';
import type * as Htmlparser2 from 'htmlparser2';

let loaded: typeof Htmlparser2 | undefined;

export const Parser = function Parser(...args: ConstructorParameters<typeof Htmlparser2.Parser>) {
  return new (loaded ??= createRequire(import.meta.url)('htmlparser2') as typeof Htmlparser2).Parser(...args);
} as unknown as typeof Htmlparser2.Parser;
