/**
 * Pieces the e2e worlds (composer-world.ts, previews-world.ts, xss-world.ts) share: the settings
 * that point Herald at the X simulator, and closing a world after checking that its page saw
 * nothing go wrong.
 */
import { expect } from 'vitest';
import type { XSimulator } from '../simulators/x.simulator.js';
import type { UiApp } from './ui-app.js';

/** The HERALD_MICROBLOG_* settings that point Herald at the X simulator, with this OAuth client. */
export const xSimulatorSettings = (x: XSimulator, client: { clientId: string; clientSecret: string }) => ({
  HERALD_MICROBLOG_API_URL: x.url,
  HERALD_MICROBLOG_AUTHORIZE_URL: x.authorizeUrl,
  HERALD_MICROBLOG_TOKEN_URL: x.tokenUrl,
  HERALD_MICROBLOG_CLIENT_ID: client.clientId,
  HERALD_MICROBLOG_CLIENT_SECRET: client.clientSecret,
});

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
