/**
 * The headless app (`npm run serve`, through server/main.ts): the same server as the desktop
 * app, without Electron.
 */
import { ConfigError } from './core/config.js';
import { SchemaTooNewError } from './db/connection.js';
import { createServer } from './server.js';

export async function runHeadless(): Promise<void> {
  try {
    const server = await createServer();
    let stopping = false;
    const stop = (signal: string) => {
      if (stopping) return;
      stopping = true;
      console.log(`Herald is stopping (${signal})…`);
      server.close().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    };
    process.on('SIGINT', () => stop('SIGINT'));
    process.on('SIGTERM', () => stop('SIGTERM'));
    // Under `npm run`, a SIGTERM sent to npm alone (what a supervisor does) reaches the shell npm
    // started, which dies without passing it on: Herald would run on, holding the port and the
    // scheduler. So when the process that started Herald is gone, Herald stops as if signalled.
    if (process.env.npm_lifecycle_event) {
      const parent = process.ppid;
      setInterval(() => {
        if (process.ppid !== parent) stop('npm stopped');
      }, 500).unref();
    }
  } catch (err) {
    if (err instanceof ConfigError || err instanceof SchemaTooNewError) {
      console.error(`Herald cannot start: ${err.message}`);
    } else if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      console.error(
        `Herald cannot start: the port is already in use. Set HERALD_PORT to another port (0 picks a free one).`,
      );
    } else {
      console.error(`Herald cannot start: ${(err as Error).message}`);
    }
    process.exit(1);
  }
}
