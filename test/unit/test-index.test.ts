/**
 * The index of test/README.md (module → the tests that pin it) is what the tests' imports and API
 * calls say today: a test added, moved or renamed without running `node scripts/test-index.mjs`
 * fails here, so the index cannot rot.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildIndex, expectedReadme } from '../../scripts/test-index.mjs';

describe('test/README.md index', () => {
  it('is current (run node scripts/test-index.mjs to rewrite it)', () => {
    expect(fs.readFileSync('test/README.md', 'utf8')).toBe(expectedReadme());
  });

  it('finds the tests of a module through imports, test-private modules and API paths', () => {
    const index = buildIndex();
    expect(index.get('server/platforms/microblog.adapter.ts')).toContain('test/integration/adapter-contract.test.ts');
    expect(index.get('server/platforms/problog.adapter.ts')).toContain('test/integration/adapter-contract.test.ts');
    expect(index.get('server/http/routes/draft-files.routes.ts')).toContain('test/integration/draft-files.test.ts');
    expect(index.get('scripts/test-index.mjs')).toEqual(['test/unit/test-index.test.ts']);
  });
});
