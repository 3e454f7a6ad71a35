import type { Command } from 'commander';

export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('Run the Herald API headless (no window), like npm run serve')
    .addHelpText('after', '\nExample:\n  $ HERALD_PORT=4780 herald serve\n')
    .action(async () => {
      const { runHeadless } = await import('../server/main.js');
      await runHeadless();
    });
}
