/**
 * Canary sweep (docs/decisions.md §20.2): the simulators hand out tokens and codes marked `canary-<network>-`
 * (test/simulators/util.ts); after the whole suite, every file the run left under its private
 * home (data folders, SQLite db/-wal/-shm, logs, temp files: the run's TMPDIR is inside it) is
 * searched for them. The secret stores are the one place they may be: the keychain's files and
 * the opt-in file store (`secrets.json`).
 */
import fs from 'node:fs';
import path from 'node:path';

/** The simulators' canary marker (test/simulators/util.ts CANARY_PATTERN, checked by a unit test). */
export const CANARY = /canary-(?:x|mastodon|threads|linkedin)-[a-z]+-[A-Za-z0-9_-]{24}/;
const MARKER = Buffer.from('canary-');
const MARKER_UTF16 = Buffer.from('canary-', 'utf16le');

/** Secret stores, where the tokens belong. */
const isSecretStore = (file) =>
  path.basename(file) === 'secrets.json' ||
  /^secrets\.json\.\d+\.tmp$/.test(path.basename(file)) ||
  file.split(path.sep).includes('keyrings');

/**
 * Every file under `dir` holding a canary outside the secret stores, with the first one found.
 * `skip` names files that are not Herald's (the test runner's own report).
 */
export function sweepForCanaries(dir, skip = []) {
  const hits = [];
  let files = 0;
  let bytes = 0;
  const walk = (d) => {
    let entries;
    try {
      entries = fs.readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile() && !isSecretStore(p) && !skip.includes(p)) {
        let buf;
        try {
          buf = fs.readFileSync(p);
        } catch {
          continue;
        }
        files += 1;
        bytes += buf.length;
        // Text as stored: UTF-8, and UTF-16 (SQLite can store text that way).
        const texts = [];
        if (buf.includes(MARKER)) texts.push(buf.toString('latin1'));
        if (buf.includes(MARKER_UTF16)) texts.push(buf.toString('utf16le'));
        const token = texts.map((text) => CANARY.exec(text)?.[0]).find(Boolean);
        if (token) hits.push({ file: p, token });
      }
    }
  };
  walk(dir);
  return { files, bytes, hits };
}
