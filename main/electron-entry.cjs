// Electron loads this CommonJS file; it registers tsx so the TypeScript main process runs as is.
require('tsx/cjs');
const { register } = require('tsx/esm/api');
register();
import('./main.ts').catch((err) => {
  console.error(`Herald could not start: ${err && err.message}`);
  process.exit(1);
});
