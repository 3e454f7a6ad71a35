// The Node versions Herald supports (package.json "engines"): 22.12 or newer, and 24 LTS. Checked
// first by every entry point, so an older Node gets one clear line instead of a crash.
const REQUIRED = [22, 12];

export function checkNodeVersion(what = 'Herald') {
  const [major, minor] = process.versions.node.split('.').map(Number);
  if (major > REQUIRED[0] || (major === REQUIRED[0] && minor >= REQUIRED[1])) return;
  process.stderr.write(
    `${what} needs Node.js ${REQUIRED.join('.')} or newer (the 22 or 24 LTS line); this is Node.js ` +
      `${process.versions.node}. Install a current LTS from https://nodejs.org and run npm install again.\n`,
  );
  process.exit(1);
}
