// Baseline for the draft list: node:http and better-sqlite3 answering the same rows as Herald's
// GET /microblog/drafts with bare prepared queries, grouped and sent as JSON. No auth, no checks.
import http from 'node:http';
import Database from 'better-sqlite3';

const db = new Database(process.env.BARE_DB, { fileMustExist: true });
db.pragma('busy_timeout = 5000');
const all = db.prepare('SELECT * FROM drafts WHERE user_id = ? ORDER BY created_at DESC, id DESC');
const page = db.prepare('SELECT * FROM drafts WHERE user_id = ? ORDER BY created_at DESC, id DESC LIMIT ?');
const tweets = db.prepare(
  'SELECT * FROM tweets WHERE draft_id IN (SELECT value FROM json_each(?)) ORDER BY draft_id, position',
);

function list(userId, limit) {
  const drafts = limit ? page.all(userId, limit) : all.all(userId);
  const byId = new Map(drafts.map((d) => [d.id, Object.assign(d, { tweets: [] })]));
  for (const t of tweets.all(JSON.stringify(drafts.map((d) => d.id)))) byId.get(t.draft_id).tweets.push(t);
  return drafts;
}

const server = http.createServer((req, res) => {
  const url = new URL(req.url, 'http://x');
  const limit = Number(url.searchParams.get('limit') ?? 0);
  const body = JSON.stringify({ success: true, drafts: list(url.searchParams.get('user'), limit) });
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
});
server.listen(0, '127.0.0.1', () => console.log(`listening ${server.address().port}`));
process.on('SIGTERM', () =>
  server.close(() => {
    db.close();
    process.exit(0);
  }),
);
