import { Argument, type Command } from 'commander';
import type { NetworkAppPlatform } from '../client/herald-client.js';
import { action, examples } from './action.js';
import { clientFor, globals, readStdin, UsageError } from './context.js';
import { keyValues, print } from './output.js';
import { networkChoices, networkName, networkParser, networkWord, withNames } from './names.js';

const NAMES: NetworkAppPlatform[] = ['microblog', 'threadblog', 'problog', 'identity'];
const nameArg = () => new Argument('<name>', networkChoices(NAMES)).argParser(networkParser(NAMES));
const sourceText = (s: 'app' | 'env' | null) =>
  s === 'env' ? 'environment (wins)' : s === 'app' ? 'saved in Herald' : '-';

/**
 * `herald network`: the install's apps at the networks, as Settings → Networks shows them: list,
 * set (client id and secret into the secret store), remove, test. The owner's key only for all
 * but list.
 */
export function registerNetwork(program: Command): void {
  const network = program
    .command('network')
    .description("The install's apps at X, Threads, LinkedIn and the sign-in provider (owner only to change)")
    .addHelpText(
      'after',
      examples(
        'herald network list',
        'printf %s "$X_SECRET" | herald network set x --client-id abc123 --client-secret-stdin',
        'herald network test x',
      ),
    );

  network
    .command('list')
    .description('Which network apps are set up, where from, and the redirect URI to register')
    .addHelpText('after', examples('herald network list', 'herald network list --output json'))
    .action(
      action(async (_opts: unknown, cmd: Command) => {
        const r = await clientFor(cmd).listNetworks();
        print(
          globals(cmd).output,
          { ...r, networks: r.networks.map((n) => withNames(n)) },
          {
            ids: r.networks.filter((n) => n.configured).map((n) => n.platform),
            rows: r.networks,
            columns: [
              { header: 'network', value: (n) => networkName(n.platform) },
              { header: 'configured', value: (n) => (n.configured ? 'yes' : 'no') },
              { header: 'source', value: (n) => sourceText(n.source) },
              { header: 'client id', value: (n) => n.clientId ?? '-', max: 30 },
              { header: 'redirect URI', value: (n) => n.redirectUri, max: 70 },
            ],
          },
        );
      }),
    );

  network
    .command('set')
    .description("Save a network app's client id and secret in Herald's secret store; used at once, no restart")
    .addArgument(nameArg())
    .requiredOption('--client-id <id>', "the client id from the network's developer portal")
    .option(
      '--client-secret <secret>',
      'the client secret (visible to other local users in the process list; prefer --client-secret-stdin)',
    )
    .option('--client-secret-stdin', 'read the client secret from standard input')
    .option(
      '--redirect-uri <uri>',
      'an own HTTPS redirect URI (Threads needs one); connecting then ends by pasting the address the ' +
        'network sent you to',
    )
    .addHelpText(
      'after',
      examples(
        'herald network set x --client-id abc123 --client-secret-stdin < x-secret.txt',
        'printf %s "$X_SECRET" | herald network set x --client-id abc123 --client-secret-stdin',
        'herald network set threads --client-id 1234 --client-secret-stdin --redirect-uri ' +
          'https://example.com/herald/threads < secret.txt',
      ),
    )
    .action(
      action(
        async (
          name: NetworkAppPlatform,
          opts: { clientId: string; clientSecret?: string; clientSecretStdin?: boolean; redirectUri?: string },
          cmd: Command,
        ) => {
          if ((opts.clientSecret === undefined) === !opts.clientSecretStdin)
            throw new UsageError('Give the client secret with --client-secret or --client-secret-stdin');
          const clientSecret = opts.clientSecret ?? (await readStdin()).replace(/\r?\n$/, '');
          const client = clientFor(cmd);
          const r = await client.setNetwork(name, {
            clientId: opts.clientId,
            clientSecret,
            ...(opts.redirectUri ? { redirectUri: opts.redirectUri } : {}),
          });
          const n = r.network;
          const note =
            n.source === 'env'
              ? '\nNote: environment variables are set for this network and win over the saved app.'
              : '';
          const pairs: [string, unknown][] = [
            ['network', networkName(n.platform)],
            ['configured', n.configured ? 'yes' : 'no'],
            ['source', sourceText(n.source)],
            ['redirect URI', n.redirectUri],
          ];
          print(
            globals(cmd).output,
            { ...r, network: withNames(n) },
            {
              ids: [n.platform],
              text: `${keyValues(pairs)}${note}\nCheck it with: herald network test ${networkWord(n.platform)}`,
            },
          );
        },
      ),
    );

  network
    .command('remove')
    .description('Remove a network app saved in Herald (environment variables are not touched)')
    .addArgument(nameArg())
    .addHelpText('after', examples('herald network remove linkedin'))
    .action(
      action(async (name: NetworkAppPlatform, _opts: unknown, cmd: Command) => {
        const r = await clientFor(cmd).removeNetwork(name);
        print(
          globals(cmd).output,
          { ...r, network: withNames(r.network) },
          {
            ids: [name],
            text:
              `Removed the saved ${networkName(name)} app` +
              `${r.network.source === 'env' ? " (the environment's app is still in force)" : ''}`,
          },
        );
      }),
    );

  network
    .command('test')
    .description('Check the app in force against the network; exits 1 when something is wrong')
    .addArgument(nameArg())
    .addHelpText(
      'after',
      examples('herald network test x', 'herald network test threads || echo "fix the Threads app first"'),
    )
    .action(
      action(async (name: NetworkAppPlatform, _opts: unknown, cmd: Command) => {
        const r = await clientFor(cmd).testNetwork(name);
        print(
          globals(cmd).output,
          { ...r, platform: name, platformName: networkName(name) },
          { ids: [r.ok ? 'ok' : 'failed'], text: `${r.ok ? 'OK' : 'Not working'}: ${r.message}` },
        );
        if (!r.ok) process.exitCode = 1;
      }),
    );

  network
    .command('analytics')
    .description(
      'LinkedIn: ask for post analytics (r_member_postAnalytics) at sign-in, or not (off: the LinkedIn app ' +
        'lacks the Community Management API product, and LinkedIn refuses the sign-in otherwise)',
    )
    .addArgument(new Argument('<switch>', 'on or off').choices(['on', 'off']))
    .addHelpText('after', examples('herald network analytics off', 'herald network analytics on'))
    .action(
      action(async (value: 'on' | 'off', _opts: unknown, cmd: Command) => {
        const r = await clientFor(cmd).setNetwork('problog', { analyticsScope: value === 'on' });
        print(
          globals(cmd).output,
          { ...r, network: withNames(r.network) },
          {
            ids: [value],
            text:
              `LinkedIn sign-in asks for: ${r.network.scopes.join(' ')}\n` +
              'Connect the LinkedIn account again (herald account connect linkedin) for it to take effect',
          },
        );
      }),
    );
}
