/**
 * text/ is imported by the server, the client library, the CLI and the UI (a browser
 * renderer): it may import only itself and twitter-text, never Node built-ins or the server.
 * The one exception is the emoji pattern of twemoji-parser, the browser-safe module twitter-text
 * itself weighs emoji with (text/urls.ts runs it without parse()'s per-emoji URL
 * building): exactly that file, and the same copy twitter-text loads.
 */
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const dir = path.resolve('text');
const TWEMOJI_REGEX = 'twemoji-parser/dist/lib/regex.js';

describe('text/ imports', () => {
  it('imports nothing but its own files and twitter-text', () => {
    const files = fs.readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'));
    expect(files.length).toBeGreaterThanOrEqual(4);
    for (const f of files) {
      const src = fs.readFileSync(path.join(dir, f), 'utf8');
      const specifiers = [...src.matchAll(/(?:import|export)[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|require\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => m[1] ?? m[2] ?? m[3]);
      for (const s of specifiers) expect(s === 'twitter-text' || s === TWEMOJI_REGEX || /^\.\/[a-z-]+\.js$/.test(s), `${f} imports ${s}`).toBe(true);
      expect(src).not.toMatch(/\bprocess\.|\bBuffer\b|__dirname/);
    }
  });

  it('the twemoji-parser pattern it imports is the copy twitter-text uses', () => {
    const req = createRequire(path.join(dir, 'urls.ts'));
    const fromTwitterText = createRequire(req.resolve('twitter-text'));
    expect(req.resolve(TWEMOJI_REGEX)).toBe(fromTwitterText.resolve(TWEMOJI_REGEX));
  });
});
