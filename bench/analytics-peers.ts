/**
 * The Bluesky peers of bench/analytics-load.bench.ts in a process of their own: a real PDS that
 * proxies getPosts to a small AppView answering any post. Out of Herald's process, so the event
 * loop Herald is measured on is its own. Prints one `PEERS {json}` line once ready; SIGTERM ends it.
 */
import { startAppView } from '../test/peers/appview.js';
import { startPds } from '../test/peers/pds.js';

const appView = await startAppView({ lookUp: false });
const pds = await startPds({ appView });
const sky = await pds.createAccount('bench');
const ready = { url: pds.url, did: sky.did, handle: sky.handle, appPassword: sky.appPassword };
console.log(`PEERS ${JSON.stringify(ready)}`);
process.on('SIGTERM', () => {
  void Promise.all([pds.close(), appView.close()]).finally(() => process.exit(0));
});
