// Baseline for start-up: a bare Express app with better-sqlite3, answering one JSON route.
import express from 'express';
import Database from 'better-sqlite3';
const db = new Database(process.env.BARE_DB);
db.pragma('journal_mode = WAL');
db.exec('CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY, v TEXT)');
const stmt = db.prepare('SELECT COUNT(*) AS n FROM t');
const app = express();
app.get('/api/v1/health', (_req, res) => res.json({ success: true, ...stmt.get() }));
const server = app.listen(0, '127.0.0.1', () => console.log(`listening ${server.address().port}`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
