// Baseline: the plainest node:http JSON server on the same Node.
import http from 'node:http';
const body = JSON.stringify({ success: true, hello: 'world' });
const server = http.createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
});
server.listen(0, '127.0.0.1', () => console.log(`listening ${server.address().port}`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
