/**
 * The README's first screen (its first 20 lines, what a person sees before scrolling) says in
 * plain words what to run and which address to open, and the address is the one Herald prints
 * with its default port.
 */
import fs from 'node:fs';
import { expect, it } from 'vitest';
import { loadConfig } from '../../server/core/config.js';

it('says what to run and which address to open, before any scrolling', () => {
  const first = fs
    .readFileSync(new URL('../../README.md', import.meta.url), 'utf8')
    .split('\n')
    .slice(0, 20)
    .join('\n');
  const port = loadConfig({}, { HERALD_DATA_DIR: '/nonexistent/herald-readme-check' }).port;
  expect(first).toMatch(/^npm install && npm start\b/m);
  expect(first).toMatch(/^npm test\b/m);
  expect(first).toContain(`open **http://127.0.0.1:${port}/**`);
  expect(first).toContain(`Herald UI at http://127.0.0.1:${port}/`);
  expect(first).toMatch(/Node\.js 22\.12 or newer/);
});
