/**
 * `herald account connect <network>`: the wizard's last step for scripts. OAuth networks print the
 * address to open, then follow the flow (GET /connections/:sessionId) until the browser comes back,
 * or, where the network redirects to an address of the person's own (Threads, a pasted redirect),
 * read that address from standard input. Bluesky takes the handle and an app password (from a
 * pipe, a file, or asked with echo off). Says what happened: connected, already connected (tokens
 * refreshed), or why not.
 */
import readline from 'node:readline';
import { Argument, type Command } from 'commander';
import type { HeraldClient } from '../client/herald-client.js';
import { action, examples } from './action.js';
import { clientFor, globals, UsageError } from './context.js';
import { print } from './output.js';
import { networkChoices, networkName, networkParser, withNames } from './names.js';
import { readPassphrase } from './passphrase.js';

const NETS = ['microblog', 'skyblog', 'fedblog', 'threadblog', 'problog'] as const;
type Net = (typeof NETS)[number];
const LOOPBACK = /^http:\/\/(127\.0\.0\.1|localhost|\[::1\])[:/]/;

interface Opts {
  instance?: string;
  handle?: string;
  appPasswordFile?: string;
  service?: string;
  reconnect?: string;
  socialSet?: string;
  timeout: string;
}

async function oneLine(question: string): Promise<string> {
  process.stderr.write(question);
  const rl = readline.createInterface({ input: process.stdin, terminal: false });
  for await (const line of rl) {
    rl.close();
    return line.trim();
  }
  throw new UsageError('No address was given on standard input');
}

async function follow(client: HeraldClient, sessionId: string, timeoutMs: number) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    await new Promise((r) => setTimeout(r, 1000));
    const s = await client.connectionStatus(sessionId);
    if (s.status === 'connected') return s;
    if (s.status === 'failed')
      throw new UsageError(`${s.error?.code ?? 'FAILED'}: ${s.error?.message ?? 'not connected'}`);
  }
  throw new UsageError('Nothing came back from the network in time: run the command again');
}

export function registerAccountConnect(account: Command): void {
  account
    .command('connect')
    .description(
      'Connect (or reconnect) an account: prints the address to open for X, Mastodon, Threads and LinkedIn; ' +
        'Bluesky takes an app password',
    )
    .addArgument(new Argument('<network>', networkChoices(NETS)).argParser(networkParser(NETS)))
    .option('--instance <url>', 'Mastodon: the instance, e.g. mastodon.social')
    .option('--handle <handle>', 'Bluesky: the handle, e.g. ada.bsky.social')
    .option(
      '--app-password-file <file>',
      'Bluesky: the app password from this file (else from a pipe, else asked with echo off)',
    )
    .option('--service <url>', 'Bluesky: your PDS, when not bsky.social')
    .option('--reconnect <account-id>', 'replace the tokens of this account in place (same id, sets and schedule)')
    .option('--social-set <id>', 'add the account to this social set')
    .option('--timeout <seconds>', 'how long to wait for the browser to come back', '600')
    .addHelpText(
      'after',
      examples(
        'herald account connect mastodon --instance mastodon.social',
        'herald account connect x',
        'herald account connect bluesky --handle ada.bsky.social < app-password.txt',
        'herald account connect x --reconnect 3f2c…',
      ),
    )
    .action(
      action(async (network: Net, opts: Opts, cmd: Command) => {
        const client = clientFor(cmd);
        const g = globals(cmd);
        const common = {
          ...(opts.reconnect ? { reconnect: opts.reconnect } : {}),
          ...(opts.socialSet ? { socialSetId: opts.socialSet } : {}),
        };
        if (network === 'skyblog') {
          if (!opts.handle) throw new UsageError('Give the Bluesky handle with --handle');
          const appPassword = await readPassphrase(opts.appPasswordFile, 'App password: ');
          const r = await client.connectSkyblog({
            identifier: opts.handle,
            appPassword,
            ...(opts.service ? { service: opts.service } : {}),
            ...common,
          });
          print(
            g.output,
            { ...r, account: withNames(r.account, r.account) },
            { ids: [r.account.uuid], text: r.message },
          );
          return;
        }
        if (network === 'fedblog' && !opts.instance) throw new UsageError('Give the Mastodon instance with --instance');
        const start =
          network === 'microblog'
            ? await client.connectMicroblog(common)
            : network === 'fedblog'
              ? await client.connectFedblog({ instanceUrl: opts.instance!, ...common })
              : network === 'threadblog'
                ? await client.connectThreadblog(common)
                : await client.connectProblog(common);
        process.stderr.write(
          `Open this address in a browser and allow Herald to post to ${networkName(network)}:\n${start.authUrl}\n`,
        );
        const redirectUri =
          network === 'fedblog'
            ? undefined
            : (await client.listNetworks()).networks.find((n) => n.platform === network)?.redirectUri;
        if (redirectUri && !LOOPBACK.test(redirectUri)) {
          const address = await oneLine(
            `Then paste the address your browser was sent to (it starts with ${redirectUri}):\n`,
          );
          const r = await client.finishConnectPasted(network as 'threadblog', address);
          print(g.output, r, { ids: [r.accountUuid], text: r.message });
          return;
        }
        process.stderr.write(`Waiting for the browser to come back from ${networkName(network)}…\n`);
        const s = await follow(client, start.sessionId, Math.max(1, Number(opts.timeout) || 600) * 1000);
        print(g.output, s, { ids: [s.accountUuid ?? ''], text: s.message ?? 'Connected' });
      }),
    );
}
