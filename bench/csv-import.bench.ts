/**
 * CSV import at scale (issue #24 item 5): a 10,000-row CSV (text with quotes and emoji, a
 * network, a time with its zone) sent to POST /microblog/drafts/import-csv on the compiled
 * server, one draft per row, in one request. Goal: ≤ 2 s for the import. A dry run of the same
 * file (every check, nothing kept) is timed too.
 */
import { cpuMicros, finishGoals, fmt, goal, loadNote, printTable, startHerald } from './lib.js';

const ROWS = Number(process.env.BENCH_CSV_ROWS ?? 10_000);
const GOAL_MS = 2000;

const lines = ['text,networks,scheduledFor,timeZone,media'];
for (let i = 0; i < ROWS; i++)
  lines.push(
    `"Row ${i}: notes on ""release ${i % 97}"" 🚀 #herald https://example.com/${i}",,2026-12-` +
      `${String(1 + (i % 28)).padStart(2, '0')}T09:${String(i % 60).padStart(2, '0')},Europe/Paris,`,
  );
const csv = `${lines.join('\n')}\n`;

const h = await startHerald({}, { socialSet: true });
try {
  const post = async (query: string) => {
    const cpu0 = cpuMicros(h.child.pid!);
    const started = process.hrtime.bigint();
    const r = await h.call('POST', `/microblog/drafts/import-csv${query}`, {
      key: h.key,
      raw: csv,
      headers: { 'content-type': 'text/csv' },
    });
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    // The server's own CPU time: what the import costs, whatever else the machine is doing.
    const cpuMs = (cpuMicros(h.child.pid!) - cpu0) / 1000;
    if (r.status !== 200 || r.body.errors.length > 0)
      throw new Error(`import-csv answered ${r.status}: ${r.text.slice(0, 500)}`);
    return { ms, cpuMs, imported: r.body.imported as number };
  };
  const dry = await post('?dryRun=true');
  const real = await post('');
  const listed = (await h.ok('GET', '/microblog/drafts?limit=1')).drafts.length;
  if (real.imported !== ROWS || listed !== 1) throw new Error(`imported ${real.imported} of ${ROWS}`);
  printTable(
    `CSV import, ${ROWS.toLocaleString('en')} rows (${(Buffer.byteLength(csv) / 1e6).toFixed(2)} MB), one request`,
    [
      ['run', 'wall ms', 'server CPU ms', 'rows/s', `goal ≤ ${GOAL_MS} ms`],
      ['dry run (checked, nothing kept)', fmt(dry.ms), fmt(dry.cpuMs), fmt(ROWS / (dry.ms / 1000), 0), ''],
      ['import', fmt(real.ms), fmt(real.cpuMs), fmt(ROWS / (real.ms / 1000), 0), real.ms <= GOAL_MS ? 'met' : 'MISSED'],
    ],
  );
  console.log(loadNote());
  console.log(
    `csv-import: ${ROWS} rows in ${fmt(real.ms)} ms wall, ${fmt(real.cpuMs)} ms server CPU (goal ≤ ${GOAL_MS} ms)`,
  );
  goal(`import of ${ROWS} rows ${fmt(real.ms)} ms (goal ≤ ${GOAL_MS} ms)`, real.ms <= GOAL_MS);
  finishGoals();
} finally {
  await h.stop();
}
