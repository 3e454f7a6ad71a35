// Electron loads this CommonJS file: the main process compiled by scripts/build.mjs (npm start
// builds it when its sources changed), so no TypeScript loader runs in the app.
try {
  require('../dist/main/main.cjs');
} catch (err) {
  console.error(`Herald could not start: ${err && err.message}`);
  process.exit(1);
}
