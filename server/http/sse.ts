/**
 * One Server-Sent Events stream of a user's events (GET /events). The rows come from the events
 * table after the client's Last-Event-ID; the events service wakes the stream when rows were
 * appended (no polling per client).
 *
 * A client that does not read: rows are read only while less than `bufferBytes` wait to go out,
 * so its memory here stays bounded (the rest stays in the table). If it takes nothing for
 * `stallMs` while the buffer is full, it is dropped with a resume point: a last `stream.dropped`
 * event naming the last id written (behind what it has not read yet), then the socket is closed.
 * It reconnects with Last-Event-ID, the last id it did read, and loses nothing.
 */
import type { Request, Response } from 'express';
import type { EventsService } from '../domain/events/events.service.js';

const frame = (id: number, type: string, data: string) => `id: ${id}\nevent: ${type}\ndata: ${data}\n\n`;

export function streamEvents(events: EventsService, userId: string, after: number, req: Request, res: Response): void {
  const limits = events.limits;
  res.statusCode = 200;
  res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('X-Accel-Buffering', 'no');
  // The first bytes go out at once, so the client knows the stream is open.
  res.write(`retry: 3000\n: stream of events after ${after}\n\n`);

  let cursor = after;
  let paused = false;
  let closed = false;
  let stall: NodeJS.Timeout | undefined;

  const pump = () => {
    if (closed || paused) return;
    for (;;) {
      const rows = events.read(userId, cursor, limits.batch);
      if (rows.length === 0) return;
      let chunk = '';
      for (const r of rows) chunk += frame(r.id, r.type, r.data);
      cursor = rows[rows.length - 1].id;
      res.write(chunk);
      if (res.writableLength > limits.bufferBytes) return hold();
      if (rows.length < limits.batch) return;
    }
  };

  /** The buffer is full: read nothing more until it drains; drop the client if it never does. */
  const hold = () => {
    paused = true;
    stall = setTimeout(drop, limits.stallMs);
    res.once('drain', () => {
      clearTimeout(stall);
      paused = false;
      pump();
    });
  };

  const drop = () => {
    if (closed) return;
    events.dropped += 1;
    const dropped = { lastEventId: cursor, reason: 'the client stopped reading; reconnect with Last-Event-ID' };
    res.end(`event: stream.dropped\ndata: ${JSON.stringify(dropped)}\n\n`);
    // It does not read, so the end above may never be taken: the socket goes after a moment.
    setTimeout(() => res.destroy(), 1_000).unref();
    cleanup();
  };

  const keepAlive = setInterval(() => {
    if (!paused && !closed) res.write(': keep-alive\n\n');
  }, limits.keepAliveMs);
  keepAlive.unref();

  const unsubscribe = events.subscribe(pump, () => {
    if (!closed) res.end();
    cleanup();
  });

  function cleanup() {
    if (closed) return;
    closed = true;
    clearInterval(keepAlive);
    clearTimeout(stall);
    unsubscribe();
  }

  res.on('close', cleanup);
  req.on('close', () => {
    if (!res.writableFinished) cleanup();
  });
  pump();
}
