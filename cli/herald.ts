/**
 * The `herald` command. One file per noun registers its sub-commands here.
 */
import { Command, CommanderError, Option } from 'commander';
import { registerAccount, registerSocialSet } from './account.command.js';
import { registerAuth } from './auth.command.js';
import { registerBackup } from './backup.command.js';
import { examples } from './action.js';
import { EXIT } from './context.js';
import { registerCredits } from './credits.command.js';
import { registerAlert } from './alert.command.js';
import { registerDraft } from './draft.command.js';
import { registerEvents } from './events.command.js';
import { registerInit } from './init.command.js';
import { registerMcp } from './mcp.command.js';
import { registerNetwork } from './network.command.js';
import { registerPublish } from './publish.command.js';
import { registerPost } from './post.command.js';
import { registerStats } from './stats.command.js';
import { registerSchedule } from './schedule.command.js';
import { registerSecrets } from './secrets.command.js';
import { registerQueue } from './queue.command.js';
import { registerServe } from './serve.command.js';
import { registerTemplate } from './template.command.js';

export function buildProgram(): Command {
  const program = new Command();
  program
    .name('herald')
    .description(
      'Write once, publish everywhere: the Herald command line.\nKey and server: --api-key/--base-url, else ' +
        'HERALD_API_KEY/HERALD_BASE_URL, else `herald login`.',
    )
    .version('0.1.0')
    .addOption(
      new Option('-o, --output <format>', 'json, table or minimal')
        .choices(['json', 'table', 'minimal'])
        .default('table'),
    )
    .option('--api-key <key>', 'API key (default: HERALD_API_KEY or the saved login)')
    .option(
      '--base-url <url>',
      'API base URL including /api/v1 (default: HERALD_BASE_URL or http://127.0.0.1:4780/api/v1)',
    )
    .option('-q, --quiet', 'print only what scripts need')
    .option(
      '--idempotency-key <key>',
      'Idempotency-Key of a command that creates or publishes (default: a new one each run); rerun with the ' +
        'same key to get the first answer instead of doing it twice',
    )
    .showHelpAfterError('(add --help for usage and examples)')
    .configureOutput({ outputError: (str, write) => write(str) })
    .addHelpText(
      'after',
      examples(
        'herald login --api-key hk_…',
        "printf 'First\\n---\\nSecond\\n---\\nThird\\n' | herald draft create --stdin",
        'herald draft list --output json',
        'herald publish "$(herald draft create --content Hi -o minimal)"',
        'herald schedule create 9b1c… --at "2026-12-01 09:00"',
      ) +
        '\nExit codes: 0 ok, 1 error, 2 usage, 3 auth, 4 not found, 5 Herald not reachable, 6 not enough ' +
        'credits, 7 rate limited.\nNO_COLOR turns colour off; output that is not a terminal never has ' +
        'colour.\n',
    );
  registerAuth(program);
  registerDraft(program);
  registerPublish(program);
  registerPost(program);
  registerStats(program);
  registerSchedule(program);
  registerEvents(program);
  registerQueue(program);
  registerSocialSet(program);
  registerAccount(program);
  registerTemplate(program);
  registerCredits(program);
  registerAlert(program);
  registerInit(program);
  registerNetwork(program);
  registerSecrets(program);
  registerServe(program);
  registerBackup(program);
  registerMcp(program);
  return program;
}

/** Every command under `root`, depth first. */
export function allCommands(root: Command): Command[] {
  return root.commands.flatMap((c) => [c, ...allCommands(c)]);
}

let pipeWatched = false;

/**
 * A reader that stops early (`herald draft --help | head -1`) closes the pipe: the command then ends
 * quietly with 0, as Unix tools do, instead of dying of an unhandled EPIPE with a stack trace.
 */
function endQuietlyOnClosedPipe(): void {
  if (pipeWatched) return;
  pipeWatched = true;
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EPIPE') throw err;
      process.exit(EXIT.ok);
    });
  }
}

export async function run(argv: string[]): Promise<number> {
  endQuietlyOnClosedPipe();
  const program = buildProgram();
  // Commander errors (unknown option, bad choice, missing argument) at any depth are usage errors.
  for (const c of [program, ...allCommands(program)]) c.exitOverride();
  try {
    await program.parseAsync(argv, { from: 'user' });
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (err) {
    // --help, `help` and --version exit 0; help shown because a command was missing is a usage error.
    if (err instanceof CommanderError) return err.exitCode === 0 ? EXIT.ok : EXIT.usage;
    process.stderr.write(`herald: ${(err as Error).message}\n`);
    return EXIT.error;
  }
}

// `tsx cli/herald.ts …`; bin/herald.mjs calls run() itself.
const isEntry = process.argv[1] && /cli[\\/]herald\.(ts|js)$/.test(process.argv[1]);
if (isEntry) {
  run(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
