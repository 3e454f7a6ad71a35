import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['**/node_modules/**', 'dist/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two cores: two files at a time keeps real servers and peers from starving each other.
    maxWorkers: 2,
    fileParallelism: true,
    // Child servers and the CLI inherit this: scrypt at 2^14 instead of OWASP's 2^17 keeps tests
    // that create many users fast (server/config.ts, passwordCostLog2). Tests of the cost set it.
    env: { HERALD_PASSWORD_COST: '14' },
  },
});
