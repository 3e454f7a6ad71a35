/**
 * client/text is imported by the server, the client library, the CLI and the UI (a browser
 * renderer): it may import only itself and twitter-text, never Node built-ins or the server.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const dir = path.resolve('client/text');

describe('client/text imports', () => {
  it('imports nothing but its own files and twitter-text', () => {
    const files = fs.readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'));
    expect(files.length).toBeGreaterThanOrEqual(4);
    for (const f of files) {
      const src = fs.readFileSync(path.join(dir, f), 'utf8');
      const specifiers = [...src.matchAll(/(?:import|export)[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|require\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => m[1] ?? m[2] ?? m[3]);
      for (const s of specifiers) expect(s === 'twitter-text' || /^\.\/[a-z-]+\.js$/.test(s), `${f} imports ${s}`).toBe(true);
      expect(src).not.toMatch(/\bprocess\.|\bBuffer\b|__dirname/);
    }
  });
});
