/**
 * Real Chromium (Debian's /usr/bin/chromium) driven by playwright-core, for UI and browser
 * attack tests. A missing Chromium fails the test with the package to install.
 */
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type LaunchOptions } from 'playwright-core';

export const CHROMIUM = process.env.HERALD_CHROMIUM ?? '/usr/bin/chromium';
export const SHOTS = path.resolve('test-results/screenshots');

export async function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}: apt-get install -y chromium`);
  const opts: LaunchOptions = {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
      ...extraArgs,
    ],
  };
  return chromium.launch(opts);
}

export function shotPath(name: string): string {
  fs.mkdirSync(SHOTS, { recursive: true });
  return path.join(SHOTS, `${name}.png`);
}
