/**
 * One formatter keeps the source: every file the formatter owns is as `npm run format` (Prettier
 * with .prettierrc, then scripts/wrap-comments.mjs and scripts/wrap-strings.mjs) leaves it, and no
 * source line is over 120 characters. A failure names each file, and each long line as file:line.
 */
import { describe, expect, it } from 'vitest';
import { check } from '../../scripts/format.mjs';

describe('source formatting', () => {
  it('every file is formatted and no line is over 120 characters (npm run format fixes most)', async () => {
    const { unformatted, long } = await check();
    expect(unformatted, `not formatted (run npm run format):\n${unformatted.join('\n')}`).toEqual([]);
    expect(long, `lines over 120 characters (split them by hand):\n${long.join('\n')}`).toEqual([]);
  }, 600_000);
});
