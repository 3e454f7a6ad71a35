/** Types of test-index.mjs (a plain script, run by node without a build). */
export const MARK: string;
export function buildIndex(): Map<string, string[]>;
export function renderIndex(index?: Map<string, string[]>): string;
export function expectedReadme(): string;
