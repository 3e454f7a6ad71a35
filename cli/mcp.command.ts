import type { Command } from 'commander';
import { action, examples } from './action.js';
import { clientFor } from './context.js';

/** `herald mcp`: Herald's tools for MCP clients (agents), over stdio. */
export function registerMcp(program: Command): void {
  program
    .command('mcp')
    .description(
      "Serve Herald's tools to an MCP client over stdio (drafts, preview, publish with confirm, schedule, credits)",
    )
    .addHelpText('after', examples('herald mcp', 'HERALD_API_KEY=hk_… herald mcp'))
    .action(
      action(async (_o: unknown, cmd: Command) => {
        const client = clientFor(cmd);
        // Loaded only here: the SDK is not part of every other command's start-up.
        const { serveMcp } = await import('./mcp/server.js');
        await serveMcp(client, '0.1.0');
      }),
    );
}
