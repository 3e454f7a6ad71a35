// LinkedIn's Videos and Documents APIs for the simulator: /rest/videos?action=initializeUpload
// (one upload URL per 4 MiB part, byte ranges given), PUT of each part answering its ETag,
// an optional captions upload URL, finalizeUpload (the ETags in order, the upload token), and
// GET /rest/videos/{urn} going PROCESSING → AVAILABLE (or PROCESSING_FAILED); documents:
// initializeUpload, one PUT, GET /rest/documents/{urn}. Files are not kept whole: each part's
// length and SHA-256, so a benchmark can send hundreds of megabytes.
import crypto from 'node:crypto';
import { randomId, type Router, type SimReply, type SimRequest } from './common.js';

export const LI_PART_BYTES = 4 * 1024 * 1024;

export interface LinkedInVideo {
  urn: string;
  owner: string;
  size: number;
  uploadToken: string;
  /** Part index → what arrived (length, SHA-256, ETag). */
  parts: Map<number, { length: number; sha: string; etag: string }>;
  partCount: number;
  captions?: string;
  finalized: boolean;
  /** GET answers PROCESSING this many times after finalizeUpload. */
  processingLeft: number;
  /** Set by a test: the video never becomes AVAILABLE, or fails with this reason. */
  stuck?: boolean;
  failWith?: string;
}

export interface LinkedInDocument {
  urn: string;
  owner: string;
  length?: number;
  sha?: string;
  processingLeft: number;
}

export interface LinkedInMediaState {
  videos: Map<string, LinkedInVideo>;
  documents: Map<string, LinkedInDocument>;
  /** Applied to the next video initialized (a test's fault). */
  nextVideo?: Partial<Pick<LinkedInVideo, 'stuck' | 'failWith' | 'processingLeft'>>;
}

type Who = { sub: string; urn: string } | SimReply;

export function linkedinMedia(
  router: Router,
  h: {
    rest: (req: SimRequest) => Who;
    auth: (req: SimRequest) => Who;
    li: (status: number, message: string, extra?: Record<string, unknown>) => SimReply;
    base: () => string;
  },
) {
  const state: LinkedInMediaState = { videos: new Map(), documents: new Map() };
  const sha = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');
  const ownerCheck = (req: SimRequest, a: { urn: string }, what: string): SimReply | string => {
    const owner = req.body?.initializeUploadRequest?.owner;
    if (!owner)
      return h.li(
        422,
        'ERROR :: /initializeUploadRequest/owner :: field is required but not found and has no default value',
      );
    if (owner !== a.urn)
      return h.li(403, `Not enough permissions to access: partnerApi${what}.ACTION.initializeUpload`, {
        serviceErrorCode: 100,
        code: 'ACCESS_DENIED',
      });
    return owner as string;
  };

  router.on('POST', '/rest/videos', (req) => {
    const a = h.rest(req);
    if (!('sub' in a)) return a;
    const action = req.query.get('action');
    if (action === 'initializeUpload') {
      const owner = ownerCheck(req, a, 'Videos');
      if (typeof owner !== 'string') return owner;
      const size = Number(req.body.initializeUploadRequest.fileSizeBytes);
      if (!Number.isInteger(size) || size <= 0)
        return h.li(422, 'ERROR :: /initializeUploadRequest/fileSizeBytes :: field is required');
      const id = randomId(12);
      const partCount = Math.ceil(size / LI_PART_BYTES);
      const v: LinkedInVideo = {
        urn: `urn:li:video:C5F10AQ${id}`,
        owner,
        size,
        uploadToken: randomId(16),
        parts: new Map(),
        partCount,
        finalized: false,
        processingLeft: 1,
        ...state.nextVideo,
      };
      state.nextVideo = undefined;
      state.videos.set(v.urn, v);
      const uploadInstructions = Array.from({ length: partCount }, (_, i) => ({
        uploadUrl: `${h.base()}/dms-uploads/video/${id}/part/${i}`,
        firstByte: i * LI_PART_BYTES,
        lastByte: Math.min(size, (i + 1) * LI_PART_BYTES) - 1,
      }));
      const captions = req.body.initializeUploadRequest.uploadCaptions === true;
      return {
        status: 200,
        body: {
          value: {
            uploadUrlsExpireAt: Date.now() + 3600_000,
            video: v.urn,
            uploadInstructions,
            uploadToken: v.uploadToken,
            ...(captions ? { captionsUploadUrl: `${h.base()}/dms-uploads/video/${id}/captions` } : {}),
          },
        },
      };
    }
    if (action === 'finalizeUpload') {
      const f = req.body?.finalizeUploadRequest ?? {};
      const v = state.videos.get(String(f.video));
      if (!v || v.owner !== a.urn) return h.li(404, `Not Found: ${String(f.video)}`, { code: 'NOT_FOUND' });
      if (f.uploadToken !== v.uploadToken) return h.li(400, 'Invalid uploadToken', { code: 'ILLEGAL_ARGUMENT' });
      const want = Array.from({ length: v.partCount }, (_, i) => v.parts.get(i)?.etag);
      if (want.some((e) => !e) || JSON.stringify(f.uploadedPartIds) !== JSON.stringify(want))
        return h.li(400, 'uploadedPartIds do not match the uploaded parts', { code: 'ILLEGAL_ARGUMENT' });
      v.finalized = true;
      return { status: 200, body: {} };
    }
    return h.li(400, 'Unknown action', { code: 'ILLEGAL_ARGUMENT' });
  });

  router.on('PUT', '/dms-uploads/video/:id/part/:n', (req) => {
    const a = h.auth(req);
    if (!('sub' in a)) return a;
    const v = [...state.videos.values()].find((x) => x.urn.endsWith(req.params.id!));
    const n = Number(req.params.n);
    if (!v || !(n >= 0 && n < v.partCount)) return { status: 404, raw: '' };
    if (v.owner !== a.urn) return { status: 403, raw: '' };
    const expected = Math.min(v.size, (n + 1) * LI_PART_BYTES) - n * LI_PART_BYTES;
    if (req.raw.length !== expected) return { status: 400, raw: `part ${n} must be ${expected} bytes` };
    const etag = `"${sha(req.raw).slice(0, 32)}"`;
    v.parts.set(n, { length: req.raw.length, sha: sha(req.raw), etag });
    return { status: 200, raw: '', headers: { etag } };
  });

  router.on('PUT', '/dms-uploads/video/:id/captions', (req) => {
    const a = h.auth(req);
    if (!('sub' in a)) return a;
    const v = [...state.videos.values()].find((x) => x.urn.endsWith(req.params.id!));
    if (!v || v.owner !== a.urn) return { status: 404, raw: '' };
    v.captions = req.raw.toString('utf8');
    return { status: 201, raw: '' };
  });

  router.on('GET', '/rest/videos/:urn', (req) => {
    const a = h.rest(req);
    if (!('sub' in a)) return a;
    const v = state.videos.get(req.params.urn!);
    if (!v) return h.li(404, `Not Found: ${req.params.urn}`, { code: 'NOT_FOUND' });
    let status = v.finalized ? 'PROCESSING' : 'WAITING_UPLOAD';
    if (v.finalized && v.failWith) status = 'PROCESSING_FAILED';
    else if (v.finalized && !v.stuck) {
      if (v.processingLeft > 0) v.processingLeft -= 1;
      else status = 'AVAILABLE';
    }
    return {
      status: 200,
      body: {
        id: v.urn,
        owner: v.owner,
        status,
        ...(status === 'PROCESSING_FAILED' ? { processingFailureReason: v.failWith } : {}),
      },
    };
  });

  router.on('POST', '/rest/documents', (req) => {
    const a = h.rest(req);
    if (!('sub' in a)) return a;
    if (req.query.get('action') !== 'initializeUpload')
      return h.li(400, 'Unknown action', { code: 'ILLEGAL_ARGUMENT' });
    const owner = ownerCheck(req, a, 'Documents');
    if (typeof owner !== 'string') return owner;
    const id = randomId(12);
    const d: LinkedInDocument = { urn: `urn:li:document:D4D10AQ${id}`, owner, processingLeft: 1 };
    state.documents.set(d.urn, d);
    return {
      status: 200,
      body: {
        value: {
          uploadUrlExpiresAt: Date.now() + 3600_000,
          uploadUrl: `${h.base()}/dms-uploads/doc/${id}`,
          document: d.urn,
        },
      },
    };
  });

  router.on('PUT', '/dms-uploads/doc/:id', (req) => {
    const a = h.auth(req);
    if (!('sub' in a)) return a;
    const d = [...state.documents.values()].find((x) => x.urn.endsWith(req.params.id!));
    if (!d) return { status: 404, raw: '' };
    if (d.owner !== a.urn) return { status: 403, raw: '' };
    if (req.raw.subarray(0, 5).toString('latin1') !== '%PDF-') return { status: 400, raw: 'not a PDF' };
    d.length = req.raw.length;
    d.sha = sha(req.raw);
    return { status: 201, raw: '' };
  });

  router.on('GET', '/rest/documents/:urn', (req) => {
    const a = h.rest(req);
    if (!('sub' in a)) return a;
    const d = state.documents.get(req.params.urn!);
    if (!d) return h.li(404, `Not Found: ${req.params.urn}`, { code: 'NOT_FOUND' });
    let status = d.sha ? 'PROCESSING' : 'WAITING_UPLOAD';
    if (d.sha) {
      if (d.processingLeft > 0) d.processingLeft -= 1;
      else status = 'AVAILABLE';
    }
    return { status: 200, body: { id: d.urn, owner: d.owner, status } };
  });

  /** Why a post cannot name this video or document URN, or undefined when it may. */
  const refuse = (urn: string, author: string, title: unknown): SimReply | undefined => {
    const item = urn.startsWith('urn:li:video:') ? state.videos.get(urn) : state.documents.get(urn);
    const ready = item && ('finalized' in item ? item.finalized && item.processingLeft === 0 && !item.stuck : item.sha);
    if (!item || !ready) return h.li(400, `Invalid content: ${urn} is not available`, { code: 'INVALID_CONTENT' });
    if (item.owner !== author)
      return h.li(422, 'Content(s) you provided must be owned by post author', { code: 'INVALID_CONTENT_OWNERSHIP' });
    if (urn.startsWith('urn:li:document:') && (typeof title !== 'string' || !title))
      return h.li(422, 'ERROR :: /content/media/title :: a document needs a title');
    return undefined;
  };

  return { state, refuse };
}
