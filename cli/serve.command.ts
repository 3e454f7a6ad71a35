import type { Command } from 'commander';
import { examples, int } from './action.js';
import { serverEntry } from './server-entry.js';

/**
 * `herald serve`: the headless server itself (the one command that does not talk to the API),
 * the compiled server (dist/server/main.mjs) loaded at run time, as `npm run serve` runs it.
 */
export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('Run the Herald API headless (no window), like npm run serve; stops on Ctrl-C')
    .option('--port <n>', 'listen port (default: HERALD_PORT or 4780; 0 picks a free one)', int(0, 65535))
    .option('--data-dir <dir>', 'data folder (default: HERALD_DATA_DIR or the OS app-data folder)')
    .addHelpText(
      'after',
      examples(
        'herald serve',
        'herald serve --port 0 --data-dir ./herald-data',
        'HERALD_SECRET_STORE=file herald serve',
      ),
    )
    .action(async (opts: { port?: number; dataDir?: string }) => {
      if (opts.port !== undefined) process.env.HERALD_PORT = String(opts.port);
      if (opts.dataDir !== undefined) process.env.HERALD_DATA_DIR = opts.dataDir;
      const { runHeadless } = await serverEntry<{ runHeadless(): Promise<void> }>('main');
      await runHeadless();
    });
}
