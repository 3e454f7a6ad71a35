/**
 * The whole-suite canary sweep (scripts/canary-sweep.mjs, run by scripts/test.mjs): it finds
 * every simulator's canary in plain, SQLite-like and UTF-16 files, and leaves the secret stores
 * (keyring files, secrets.json) alone.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script without types
import { CANARY, sweepForCanaries } from '../../scripts/canary-sweep.mjs';
import { CANARY_PATTERN } from '../simulators/index.js';
import { canaryToken } from '../simulators/util.js';
import { tempDir } from '../helpers/server.js';

const dir = tempDir('herald-sweep-');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const put = (rel: string, data: string | Buffer) => {
  const p = path.join(dir, rel);
  fs.mkdirSync(path.dirname(p), { recursive: true });
  fs.writeFileSync(p, data);
  return p;
};

it("matches what the simulators hand out, like the suite's own pattern", () => {
  expect((CANARY as RegExp).source).toBe(CANARY_PATTERN.source);
  for (const network of ['x', 'mastodon', 'threads', 'linkedin']) {
    for (const kind of ['access', 'refresh', 'code']) expect(canaryToken(network, kind)).toMatch(CANARY as RegExp);
  }
});

it('finds canaries anywhere outside the secret stores, and only there', () => {
  const token = canaryToken('x', 'access');
  put('clean/herald.db', Buffer.concat([Buffer.alloc(4096), Buffer.from('no secrets here: canary-bird')]));
  const log = put('data-1/server.log', `GET /callback?code=${canaryToken('threads', 'code')} 200\n`);
  const wal = put(
    'data-2/herald.db-wal',
    Buffer.concat([Buffer.alloc(100, 1), Buffer.from(token), Buffer.alloc(100, 2)]),
  );
  const utf16 = put('data-3/herald.db', Buffer.from(`x${canaryToken('linkedin', 'refresh')}y`, 'utf16le'));
  put('share/keyrings/login.keyring', token);
  put('data-4/secrets.json', JSON.stringify({ a: token }));
  const report = put('vitest-report.json', token);
  const { files, hits } = sweepForCanaries(dir, [report]);
  expect(files).toBe(4);
  expect(hits.map((h: { file: string }) => h.file).sort()).toEqual([log, wal, utf16].sort());
});
