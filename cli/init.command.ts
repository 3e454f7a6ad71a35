import type { Command } from 'commander';
import { loadConfig } from '../server/config.js';
import { consoleLogger, systemClock, systemIds, type Deps } from '../server/context.js';
import { openDatabase } from '../server/db/connection.js';
import { UsersService } from '../server/domain/users/users.service.js';
import { UnavailableSecretStore } from '../server/secrets/index.js';

/**
 * `herald init`: creates the owner in the local data folder. It works on the database directly
 * because there is no user (and so no key) to call the API with yet.
 */
export function registerInit(program: Command): void {
  program
    .command('init')
    .description('Create the owner of this Herald install (first run only)')
    .requiredOption('--email <email>', 'the owner\'s e-mail address')
    .requiredOption('--password <password>', 'at least 8 characters')
    .option('--data-dir <dir>', 'data folder (default: HERALD_DATA_DIR or the OS app-data folder)')
    .addHelpText('after', '\nExample:\n  $ herald init --email me@example.com --password "a long passphrase"\n')
    .action(async (opts: { email: string; password: string; dataDir?: string }) => {
      const config = loadConfig(process.env, opts.dataDir ? { HERALD_DATA_DIR: opts.dataDir } : {});
      const database = openDatabase(config.dbPath);
      try {
        const deps: Deps = {
          config, db: database.db, sqlite: database.sqlite, clock: systemClock, ids: systemIds, random: Math.random,
          log: consoleLogger('error'), secrets: new UnavailableSecretStore('not used by init'), runtime: { baseUrl: '' },
        };
        const users = new UsersService(deps);
        if (users.count() > 0) {
          throw new Error(`Herald in ${config.dataDir} already has an owner; sign in with herald login instead.`);
        }
        const owner = await users.create({ email: opts.email, password: opts.password });
        console.log(`Created the owner ${owner.email} in ${config.dataDir}. Start Herald with npm start, then sign in.`);
      } finally {
        database.close();
      }
    });
}
