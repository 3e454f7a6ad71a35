/** Types of format.mjs (a plain script, run by node without a build). */
export function check(targets?: string[]): Promise<{ unformatted: string[]; long: string[] }>;
export function formatText(file: string, text: string): Promise<string>;
export function wrapCss(text: string): string;
