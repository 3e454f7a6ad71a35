/**
 * Repos prepare their statements on first use (server/db/repos/statements.ts). Building the repos,
 * as every start-up does, prepares none; and every statement of every repo prepares against the
 * migrated schema, so SQL that no longer matches the tables fails here, named, and not in front
 * of a user on the first request that needs it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../server/core/clock.js';
import { systemIds } from '../../server/core/ids.js';
import { openDatabase } from '../../server/db/connection.js';
import { createRepos } from '../../server/db/repos/index.js';
import { STATEMENTS } from '../../server/db/repos/statements.js';
import { tempDir } from '../helpers/server.js';

const dir = tempDir('herald-statements-');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('repo statements', () => {
  it('are prepared on first use: none while the repos are built, and every one prepares against the schema', () => {
    const database = openDatabase(path.join(dir, 'herald.db'));
    try {
      const repos = createRepos(database.sqlite, { clock: systemClock, ids: systemIds });
      const groups: [string, Record<string, unknown>][] = [];
      for (const [repoName, repo] of Object.entries(repos)) {
        for (const [field, value] of Object.entries(repo as object)) {
          if (value && typeof value === 'object' && (value as Record<symbol, unknown>)[STATEMENTS])
            groups.push([`${repoName}.${field}`, value as Record<string, unknown>]);
        }
      }
      const names = groups.flatMap(([g, s]) => Object.keys(s).map((k) => `${g}.${k}`));
      expect(names.length).toBeGreaterThan(140);
      const preparedEarly = groups.flatMap(([g, s]) =>
        Object.keys(s)
          .filter((k) => !Object.getOwnPropertyDescriptor(s, k)!.get)
          .map((k) => `${g}.${k}`),
      );
      expect(preparedEarly, 'prepared while the repos were built').toEqual([]);

      const failed: string[] = [];
      for (const [g, s] of groups) {
        for (const k of Object.keys(s)) {
          try {
            const st = s[k] as { source?: string };
            expect(typeof st.source, `${g}.${k}`).toBe('string');
            // Read again: the same statement, prepared once.
            expect(s[k]).toBe(st);
          } catch (err) {
            failed.push(`${g}.${k}: ${(err as Error).message}`);
          }
        }
      }
      expect(failed).toEqual([]);
    } finally {
      database.close();
    }
  });

  it("name each table's columns in one list: no column list is copied between repos", () => {
    const dir = path.resolve('server/db/repos');
    // A column list: a constant of several `snake AS camel` columns (repos/columns.ts holds the shared ones).
    const LIST = /const\s+\w+\s*=\s*[`'](?![^`']*\b(?:SELECT|FROM)\b)([^`']*\bAS\b[^`']*)[`']/g;
    const seen = new Map<string, string>();
    const copies: string[] = [];
    for (const f of fs.readdirSync(dir).filter((n) => n.endsWith('.ts'))) {
      for (const m of fs.readFileSync(path.join(dir, f), 'utf8').matchAll(LIST)) {
        const cols = m[1].replace(/\s+/g, ' ').trim();
        if ((cols.match(/\bAS\b/g) ?? []).length < 3) continue;
        const first = seen.get(cols);
        if (first && first !== f) copies.push(`${f} copies a column list of ${first}`);
        else seen.set(cols, f);
      }
    }
    expect(seen.size).toBeGreaterThan(5);
    expect(copies).toEqual([]);
  });
});
