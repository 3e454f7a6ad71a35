/** How a tool answers: the API's JSON as text, or an error the model reads (an API error's code and message). */
import { HeraldError } from '../../client/index.js';

export type ToolResult = { content: { type: 'text'; text: string }[]; isError?: boolean };

export const text = (value: unknown): ToolResult => ({
  content: [{ type: 'text', text: typeof value === 'string' ? value : JSON.stringify(value, null, 2) }],
});
export const refuse = (message: string): ToolResult => ({ content: [{ type: 'text', text: message }], isError: true });

/** Runs one client call; an API error is the tool's error, with its code and message. */
export const call = (fn: () => Promise<unknown>) => async (): Promise<ToolResult> => {
  try {
    return text(await fn());
  } catch (err) {
    if (err instanceof HeraldError)
      return refuse(
        `${err.code} (${err.status}): ${err.message}` +
          `${err.details?.length ? `\n${err.details.map((d) => `- ${d.path}: ${d.message}`).join('\n')}` : ''}`,
      );
    throw err;
  }
};
