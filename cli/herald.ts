/**
 * The `herald` command. One file per noun registers its sub-commands here.
 */
import { Command, CommanderError, Option } from 'commander';
import { registerAccount, registerSocialSet } from './account.command.js';
import { registerAuth } from './auth.command.js';
import { registerBackup } from './backup.command.js';
import { EXIT } from './context.js';
import { registerCredits } from './credits.command.js';
import { registerDraft } from './draft.command.js';
import { registerInit } from './init.command.js';
import { registerPublish } from './publish.command.js';
import { registerSchedule } from './schedule.command.js';
import { registerServe } from './serve.command.js';
import { registerTemplate } from './template.command.js';

export function buildProgram(): Command {
  const program = new Command();
  program
    .name('herald')
    .description('Write once, publish everywhere: the Herald command line.\nKey and server: --api-key/--base-url, else HERALD_API_KEY/HERALD_BASE_URL, else `herald login`.')
    .version('0.1.0')
    .addOption(new Option('-o, --output <format>', 'json, table or minimal').choices(['json', 'table', 'minimal']).default('table'))
    .option('--api-key <key>', 'API key (default: HERALD_API_KEY or the saved login)')
    .option('--base-url <url>', 'API base URL including /api/v1 (default: HERALD_BASE_URL or http://127.0.0.1:4780/api/v1)')
    .option('-q, --quiet', 'print only what scripts need')
    .showHelpAfterError()
    .configureOutput({ outputError: (str, write) => write(str) });
  registerAuth(program);
  registerDraft(program);
  registerPublish(program);
  registerSchedule(program);
  registerSocialSet(program);
  registerAccount(program);
  registerTemplate(program);
  registerCredits(program);
  registerInit(program);
  registerServe(program);
  registerBackup(program);
  return program;
}

export async function run(argv: string[]): Promise<number> {
  const program = buildProgram();
  program.exitOverride();
  for (const sub of program.commands) sub.exitOverride();
  try {
    await program.parseAsync(argv, { from: 'user' });
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help') return EXIT.ok;
      return EXIT.usage;
    }
    process.stderr.write(`herald: ${(err as Error).message}\n`);
    return EXIT.error;
  }
}

const isEntry = process.argv[1] && /(cli[\\/]herald\.(ts|js)|bin[\\/]herald(\.mjs)?)$/.test(process.argv[1]);
if (isEntry) {
  run(process.argv.slice(2)).then((code) => { process.exitCode = code; });
}
