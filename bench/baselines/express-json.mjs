// Reference for the keyed API: Express 5 with nothing but one JSON route, its req/res built from
// classes that already carry Express's prototypes (as Herald's server does, expressjs/express#4532).
// What Express itself costs per request on this Node, before any guard, key check or query.
import http from 'node:http';
import express from 'express';
const app = express();
app.disable('x-powered-by');
app.disable('etag');
app.set('query parser', 'simple');
const api = express.Router();
api.get('/hello', (_req, res) => res.json({ success: true, hello: 'world' }));
app.use('/api/v1', api);
function Req(socket) {
  http.IncomingMessage.call(this, socket);
}
Req.prototype = app.request;
function Res(req, options) {
  http.ServerResponse.call(this, req, options);
}
Res.prototype = app.response;
const server = http.createServer({ IncomingMessage: Req, ServerResponse: Res }, app);
server.listen(0, '127.0.0.1', () => console.log(`listening ${server.address().port}`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
