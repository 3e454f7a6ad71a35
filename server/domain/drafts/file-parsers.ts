/**
 * yaml and csv-parse, loaded on first use: only draft files (import, export, CSV) need them, and
 * parsing them is a few ms of every start otherwise (the same pattern as core/html-parser.ts).
 */
import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';
import type * as CsvSync from 'csv-parse/sync';

let yaml: typeof Yaml | undefined;
let csv: typeof CsvSync | undefined;

export const yamlLib = (): typeof Yaml => (yaml ??= createRequire(import.meta.url)('yaml') as typeof Yaml);
export const csvParser = (): typeof CsvSync.parse =>
  (csv ??= createRequire(import.meta.url)('csv-parse/sync') as typeof CsvSync).parse;
