/**
 * POSTs a file as a request body with node:http(s) and a pipeline from disk, so the socket's own
 * backpressure bounds what is read ahead (fetch with a stream body read a 100 MB video ahead of a
 * slower receiver and grew the server by about as much). Answers the status, headers and text.
 */
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { pipeline } from 'node:stream/promises';
import { RELEASE_EVERY_BYTES, releaseSpentBuffers } from '../core/memory.js';

export interface StreamReply {
  status: number;
  headers: Headers;
  text: string;
}

export function streamUpload(
  url: URL,
  headers: Record<string, string>,
  file: string,
  opts: { signal?: AbortSignal; timeoutMs: number; method?: 'POST' | 'PUT'; start?: number; end?: number },
): Promise<StreamReply> {
  const mod = url.protocol === 'https:' ? https : http;
  const signal = opts.signal
    ? AbortSignal.any([opts.signal, AbortSignal.timeout(opts.timeoutMs)])
    : AbortSignal.timeout(opts.timeoutMs);
  return new Promise((resolve, reject) => {
    const req = mod.request(url, { method: opts.method ?? 'POST', headers, signal }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const h = new Headers();
        for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') h.set(k, v);
        resolve({ status: res.statusCode ?? 0, headers: h, text: Buffer.concat(chunks).toString('utf8') });
      });
    });
    req.on('error', reject);
    const src = fs.createReadStream(file, { highWaterMark: 256 * 1024, start: opts.start, end: opts.end });
    // Spent chunks are freed as the upload goes, not when V8 next collects (core/memory.ts).
    let sent = 0;
    src.on('data', (c) => {
      sent += c.length;
      if (sent >= RELEASE_EVERY_BYTES) {
        sent = 0;
        releaseSpentBuffers();
      }
    });
    pipeline(src, req).catch(reject);
  });
}
