// Bluesky's video service (video.bsky.app) as Herald meets it: app.bsky.video.getUploadLimits,
// uploadVideo (the body streamed to a temp file, never held) and getJobStatus. Like the real
// service, it stores the processed video on the user's PDS with the service-auth token the user
// gave it (aud: the PDS's did:web, lxm: com.atproto.repo.uploadBlob), so the real PDS checks
// that token and holds the blob the post's record then names.
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { AddressInfo } from 'node:net';

/** How the next upload goes (default: processed and stored). */
export type VideoOutcome =
  | 'ok'
  /** The answer carries no jobId (the Postiz failure). */
  | 'no-job'
  /** The job ends in JOB_STATE_FAILED with the service's message. */
  | 'failed'
  /** The job stays in JOB_STATE_ENCODING forever. */
  | 'never';

export interface BskyVideoSim {
  url: string;
  /** The next uploads' outcomes, first first; empty: 'ok'. */
  outcomes: VideoOutcome[];
  /** getUploadLimits answers this (default: canUpload true). */
  limits: { canUpload: boolean; message?: string; remainingDailyBytes?: number };
  /** Every request, as `${METHOD} ${xrpc method}`. */
  requests: string[];
  /** Bytes received by each uploadVideo. */
  uploadedBytes: number[];
  /** Tokens refused, with why. */
  refused: string[];
  close(): Promise<void>;
}

interface Job {
  jobId: string;
  did: string;
  state: string;
  outcome: VideoOutcome;
  polls: number;
  blob?: unknown;
  error?: string;
}

const claims = (token: string | undefined): Record<string, unknown> | undefined => {
  const payload = token?.split('.')[1];
  if (!payload) return undefined;
  try {
    return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
};

export async function startBskyVideoSim(opts: { pdsUrl: string; pollsUntilDone?: number }): Promise<BskyVideoSim> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bsky-video-sim-'));
  const jobs = new Map<string, Job>();
  const pdsAud = `did:web:${new URL(opts.pdsUrl).hostname}`;
  let selfAud = '';
  const sim: BskyVideoSim = {
    url: '',
    outcomes: [],
    limits: { canUpload: true },
    requests: [],
    uploadedBytes: [],
    refused: [],
    close: async () => {},
  };

  const send = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  /** The checks the service makes on a user's service-auth token before anything else. */
  const tokenProblem = (req: http.IncomingMessage, aud: string, lxm: string, did?: string) => {
    const c = claims(/^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1]);
    if (!c) return 'no service-auth token';
    if (c.aud !== aud) return `token aud ${String(c.aud)}, expected ${aud}`;
    if (c.lxm !== lxm) return `token lxm ${String(c.lxm)}, expected ${lxm}`;
    if (typeof c.exp !== 'number' || c.exp * 1000 < Date.now()) return 'token expired';
    if (did && c.iss !== did) return `token iss ${String(c.iss)} is not ${did}`;
    return undefined;
  };

  /** Stores the file on the user's PDS as the user (the token they gave), as the real service does. */
  async function store(job: Job, file: string, token: string): Promise<void> {
    try {
      const res = await fetch(`${opts.pdsUrl}/xrpc/com.atproto.repo.uploadBlob`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'video/mp4' },
        body: Readable.toWeb(fs.createReadStream(file)) as ReadableStream,
        duplex: 'half',
      } as RequestInit);
      const body = (await res.json()) as { blob?: unknown; message?: string };
      if (!res.ok || !body.blob) {
        job.error = `the PDS refused the blob: ${body.message ?? res.status}`;
        job.state = 'JOB_STATE_FAILED';
        return;
      }
      job.blob = body.blob;
    } finally {
      fs.rmSync(file, { force: true });
    }
  }

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const method = url.pathname.replace(/^\/xrpc\//, '');
    sim.requests.push(`${req.method} ${method}`);
    const fail = (why: string) => {
      sim.refused.push(why);
      req.resume();
      send(res, 401, { error: 'AuthRequired', message: why });
    };
    if (method === 'app.bsky.video.getUploadLimits') {
      const why = tokenProblem(req, selfAud, 'app.bsky.video.getUploadLimits');
      if (why) return fail(why);
      return send(res, 200, sim.limits);
    }
    if (method === 'app.bsky.video.uploadVideo' && req.method === 'POST') {
      const did = url.searchParams.get('did') ?? '';
      const why = tokenProblem(req, pdsAud, 'com.atproto.repo.uploadBlob', did);
      if (why) return fail(why);
      const file = path.join(dir, crypto.randomBytes(8).toString('hex'));
      let bytes = 0;
      req.on('data', (c: Buffer) => {
        bytes += c.length;
      });
      pipeline(req, fs.createWriteStream(file)).then(
        () => {
          sim.uploadedBytes.push(bytes);
          const outcome = sim.outcomes.shift() ?? 'ok';
          if (outcome === 'no-job') {
            fs.rmSync(file, { force: true });
            return send(res, 200, { jobStatus: { did, state: 'JOB_STATE_CREATED', message: 'Video too complex' } });
          }
          const job: Job = { jobId: crypto.randomUUID(), did, state: 'JOB_STATE_CREATED', outcome, polls: 0 };
          jobs.set(job.jobId, job);
          const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')![1];
          if (outcome === 'ok') void store(job, file, token);
          else fs.rmSync(file, { force: true });
          send(res, 200, { jobStatus: { jobId: job.jobId, did, state: job.state } });
        },
        () => fs.rmSync(file, { force: true }),
      );
      return;
    }
    if (method === 'app.bsky.video.getJobStatus') {
      const job = jobs.get(url.searchParams.get('jobId') ?? '');
      if (!job) return send(res, 404, { error: 'NotFound', message: 'no such job' });
      job.polls += 1;
      if (job.outcome === 'failed' && job.polls >= 1) {
        job.state = 'JOB_STATE_FAILED';
        job.error = 'Video is not a supported format (moov atom has no video track)';
      } else if (job.outcome === 'ok' && job.state !== 'JOB_STATE_FAILED') {
        job.state = job.blob && job.polls >= (opts.pollsUntilDone ?? 2) ? 'JOB_STATE_COMPLETED' : 'JOB_STATE_ENCODING';
      } else if (job.outcome === 'never') job.state = 'JOB_STATE_ENCODING';
      return send(res, 200, {
        jobStatus: {
          jobId: job.jobId,
          did: job.did,
          state: job.state,
          progress: job.state === 'JOB_STATE_COMPLETED' ? 100 : 50,
          ...(job.state === 'JOB_STATE_COMPLETED' ? { blob: job.blob } : {}),
          ...(job.state === 'JOB_STATE_FAILED' ? { error: 'failed', message: job.error } : {}),
        },
      });
    }
    req.resume();
    send(res, 404, { error: 'MethodNotImplemented', message: `no ${method}` });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  sim.url = `http://127.0.0.1:${port}`;
  selfAud = 'did:web:127.0.0.1';
  sim.close = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    fs.rmSync(dir, { recursive: true, force: true });
  };
  return sim;
}
