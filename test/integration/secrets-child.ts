/**
 * Run by secrets.test.ts in a child process whose D-Bus address points nowhere: opens Herald's
 * secret store exactly as the server does and tries to save a token. Prints one JSON line.
 * argv: <data dir> [HERALD_SECRET_STORE value]
 */
import { loadConfig } from '../../server/core/config.js';
import { openSecretStore } from '../../server/secrets/index.js';

const [dataDir, storeSetting] = process.argv.slice(2);
const warnings: string[] = [];
const log = {
  info: () => undefined,
  warn: (m: string) => {
    warnings.push(m);
  },
  error: (m: string) => {
    warnings.push(m);
  },
};
const config = loadConfig(
  {},
  { HERALD_DATA_DIR: dataDir, ...(storeSetting ? { HERALD_SECRET_STORE: storeSetting } : {}) },
);
const store = await openSecretStore(config, log);
let setError: string | null = null;
try {
  await store.set('account:probe', 'canary-secret-value');
} catch (err) {
  setError = (err as Error).message;
}
console.log(JSON.stringify({ kind: store.kind, setError, read: await store.get('account:probe'), warnings }));
