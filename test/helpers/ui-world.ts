/**
 * What the e2e worlds (composer-world.ts, previews-world.ts, xss-world.ts) share: closing a world
 * after checking that its page saw nothing go wrong.
 */
import { expect } from 'vitest';
import type { UiApp } from './ui-app.js';

/**
 * After a file's tests: its page saw no page error, console error, CSP violation or dialog. Then
 * (whether it did or not) closes the app and the simulators in `others`.
 */
export async function closeCheckingNothingWentWrong(
  app: UiApp | undefined,
  ...others: ({ close(): Promise<void> } | undefined)[]
): Promise<void> {
  try {
    if (app) expect({ problems: app.problems, dialogs: app.dialogs }).toEqual({ problems: [], dialogs: [] });
  } finally {
    await app?.close();
    await Promise.all(others.map((o) => o?.close()));
  }
}
