/**
 * Herald applies its drizzle-kit migrations itself (applyMigrations in server/db/connection.ts:
 * drizzle reads the files, SQLite's exec runs them). What it leaves must be what drizzle's own
 * migrator leaves, so either can carry on from the other: the same schema, and the same rows in
 * `__drizzle_migrations` (each file's SHA-256 and journal time). Checked from an empty file and
 * from a file drizzle migrated to an older release (a journal cut short), and a second run is a
 * no-op.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { afterAll, describe, expect, it } from 'vitest';
import { applyMigrations, migrationsFolder } from '../../server/db/connection.js';
import { tempDir } from '../helpers/server.js';

const dir = tempDir('herald-migrations-');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const FOLDER = migrationsFolder();
const journal = JSON.parse(fs.readFileSync(path.join(FOLDER, 'meta/_journal.json'), 'utf8')) as {
  entries: { tag: string }[];
};

/**
 * Tables, indexes and triggers with their SQL, and the migration rows (ids aside: SERIAL is not autoincrement in
 * SQLite).
 */
function snapshot(file: string) {
  const db = new Database(file, { readonly: true });
  try {
    return {
      // Whitespace aside: drizzle's CREATE of its own table is indented.
      schema: (
        db
          .prepare(
            "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name",
          )
          .all() as { name: string; sql: string | null }[]
      ).map((r) => ({ ...r, sql: r.sql?.replace(/\s+/g, ' ').replace(/\( /g, '(').replace(/ \)/g, ')') })),
      applied: db.prepare('SELECT hash, created_at FROM __drizzle_migrations ORDER BY created_at').all(),
    };
  } finally {
    db.close();
  }
}

function withDrizzle(file: string, folder = FOLDER): void {
  const db = new Database(file);
  migrate(drizzle(db), { migrationsFolder: folder });
  db.close();
}

function withHerald(file: string): void {
  const db = new Database(file);
  applyMigrations(db, FOLDER);
  db.close();
}

describe('applyMigrations', () => {
  it("leaves what drizzle's migrator leaves, from an empty file and from an older release's file", () => {
    expect(journal.entries.length).toBeGreaterThan(3);
    withDrizzle(path.join(dir, 'drizzle.db'));
    const expected = snapshot(path.join(dir, 'drizzle.db'));
    expect(expected.applied).toHaveLength(journal.entries.length);

    withHerald(path.join(dir, 'herald.db'));
    expect(snapshot(path.join(dir, 'herald.db'))).toEqual(expected);

    // An older release: drizzle applied the first three migrations; Herald applies the rest.
    const older = path.join(dir, 'older-migrations');
    fs.cpSync(FOLDER, older, { recursive: true });
    const cut = JSON.parse(fs.readFileSync(path.join(FOLDER, 'meta/_journal.json'), 'utf8')) as { entries: unknown[] };
    cut.entries = cut.entries.slice(0, 3);
    fs.writeFileSync(path.join(older, 'meta/_journal.json'), JSON.stringify(cut));
    withDrizzle(path.join(dir, 'upgraded.db'), older);
    expect(snapshot(path.join(dir, 'upgraded.db')).applied).toHaveLength(3);
    withHerald(path.join(dir, 'upgraded.db'));
    expect(snapshot(path.join(dir, 'upgraded.db'))).toEqual(expected);

    // Again: nothing to do, nothing written.
    withHerald(path.join(dir, 'upgraded.db'));
    expect(snapshot(path.join(dir, 'upgraded.db'))).toEqual(expected);
    // And drizzle carries on from Herald's file with nothing to do either.
    withDrizzle(path.join(dir, 'herald.db'));
    expect(snapshot(path.join(dir, 'herald.db'))).toEqual(expected);
  });

  it('applies nothing of a migration that fails: the file stays as it was', () => {
    const broken = path.join(dir, 'broken-migrations');
    fs.cpSync(FOLDER, broken, { recursive: true });
    const last = journal.entries[journal.entries.length - 1].tag;
    fs.appendFileSync(path.join(broken, `${last}.sql`), '\n--> statement-breakpoint\nCREATE TABLE oops (;');
    const file = path.join(dir, 'broken.db');
    const db = new Database(file);
    expect(() => applyMigrations(db, broken)).toThrow(/syntax error/);
    db.close();
    expect(snapshot(file).schema.map((r) => r.name)).toEqual(['__drizzle_migrations']);
    expect(snapshot(file).applied).toEqual([]);
  });
});
