// Media upload v2 for the X simulator: one-shot, chunked (dedicated paths and the command style),
// STATUS polling and alt-text metadata.
import type { Router, SimReply, SimRequest } from './common.js';
import { str } from './common.js';

export interface XMedia {
  id: string;
  mediaKey: string;
  ownerId: string;
  mediaType: string;
  category: string;
  totalBytes: number;
  chunks: Map<number, Buffer>;
  bytes?: Buffer;
  state: 'uploading' | 'pending' | 'in_progress' | 'succeeded' | 'failed';
  statusPollsLeft: number;
  altText?: string;
}

export interface XMediaHost {
  media: Map<string, XMedia>;
  nextId(): string;
  /** Bearer → user id, or an error reply. */
  auth(req: SimRequest, scope: string): { userId: string } | SimReply;
  problem(status: number, title: string, detail: string, type?: string): SimReply;
  invalid(param: string, message: string): SimReply;
  ok(req: SimRequest, userId: string, status: number, body: unknown): SimReply;
  processingPolls: number;
  checkAfterSecs: number;
  /** Media types whose processing fails (e.g. 'video/x-broken'). */
  failMediaTypes: Set<string>;
}

function describe(m: XMedia): Record<string, unknown> {
  const data: Record<string, unknown> = {
    id: m.id,
    media_key: m.mediaKey,
    size: m.totalBytes,
    expires_after_secs: 86400,
  };
  if (m.mediaType.startsWith('image/') && m.state === 'succeeded') data.image = { image_type: m.mediaType, w: 1, h: 1 };
  if (m.state === 'pending' || m.state === 'in_progress') {
    data.processing_info = { state: m.state, check_after_secs: 0, progress_percent: m.state === 'pending' ? 0 : 50 };
  } else if (m.state === 'succeeded' && m.category !== 'tweet_image') {
    data.processing_info = { state: 'succeeded', progress_percent: 100 };
  } else if (m.state === 'failed') {
    data.processing_info = {
      state: 'failed',
      progress_percent: 100,
      error: { code: 1, name: 'InvalidMedia', message: 'Unsupported video format' },
    };
  }
  return data;
}

export function registerXMedia(router: Router, host: XMediaHost): void {
  const withCheck = (m: XMedia) => {
    const d = describe(m);
    if (d.processing_info && (m.state === 'pending' || m.state === 'in_progress')) {
      (d.processing_info as Record<string, unknown>).check_after_secs = host.checkAfterSecs;
    }
    return d;
  };

  const create = (userId: string, mediaType: string, category: string, totalBytes: number): XMedia => {
    const id = host.nextId();
    const prefix = mediaType.startsWith('video/') ? '7' : mediaType === 'image/gif' ? '16' : '3';
    const m: XMedia = {
      id,
      mediaKey: `${prefix}_${id}`,
      ownerId: userId,
      mediaType,
      category,
      totalBytes,
      chunks: new Map(),
      state: 'uploading',
      statusPollsLeft: host.processingPolls,
    };
    host.media.set(id, m);
    return m;
  };

  const finalize = (req: SimRequest, userId: string, m: XMedia | undefined): SimReply => {
    if (!m || m.ownerId !== userId)
      return host.problem(
        400,
        'Invalid Request',
        'Media id not found.',
        'https://api.x.com/2/problems/invalid-request',
      );
    const indexes = [...m.chunks.keys()].sort((a, b) => a - b);
    m.bytes = Buffer.concat(indexes.map((i) => m.chunks.get(i)!));
    if (m.bytes.length !== m.totalBytes) {
      return host.problem(
        400,
        'Invalid Request',
        `File size mismatch: expected ${m.totalBytes}, got ${m.bytes.length}.`,
      );
    }
    const needsProcessing =
      m.category === 'tweet_video' || m.category === 'tweet_gif' || m.mediaType.startsWith('video/');
    if (host.failMediaTypes.has(m.mediaType)) m.state = needsProcessing ? 'pending' : 'failed';
    else m.state = needsProcessing && host.processingPolls > 0 ? 'pending' : 'succeeded';
    return host.ok(req, userId, 200, { data: withCheck(m) });
  };

  const append = (req: SimRequest, userId: string, m: XMedia | undefined): SimReply => {
    if (!m || m.ownerId !== userId) return host.problem(400, 'Invalid Request', 'Media id not found.');
    const idx = Number(str(req.body.segment_index));
    const part = req.files.find((f) => f.name === 'media');
    if (!Number.isInteger(idx) || idx < 0 || idx > 999)
      return host.invalid('segment_index', 'segment_index must be 0-999');
    if (!part) return host.invalid('media', 'media is required');
    m.chunks.set(idx, part.data);
    return host.ok(req, userId, 200, { data: { expires_at: Math.floor(Date.now() / 1000) + 86400 } });
  };

  const init = (req: SimRequest, userId: string, src: Record<string, unknown>): SimReply => {
    const mediaType = str(src.media_type);
    const total = Number(str(src.total_bytes));
    if (!mediaType) return host.invalid('media_type', 'media_type is required');
    if (!Number.isFinite(total) || total <= 0) return host.invalid('total_bytes', 'total_bytes is required');
    const category = str(src.media_category) ?? (mediaType.startsWith('video/') ? 'tweet_video' : 'tweet_image');
    const m = create(userId, mediaType, category, total);
    return host.ok(req, userId, 200, { data: { id: m.id, media_key: m.mediaKey, expires_after_secs: 86400 } });
  };

  const status = (req: SimRequest, userId: string, id: string | undefined): SimReply => {
    const m = id ? host.media.get(id) : undefined;
    if (!m || m.ownerId !== userId)
      return host.problem(
        404,
        'Not Found Error',
        'Could not find media.',
        'https://api.x.com/2/problems/resource-not-found',
      );
    if (m.state === 'pending' || m.state === 'in_progress') {
      if (m.statusPollsLeft <= 0) m.state = host.failMediaTypes.has(m.mediaType) ? 'failed' : 'succeeded';
      else {
        m.statusPollsLeft -= 1;
        m.state =
          m.statusPollsLeft === 0 ? (host.failMediaTypes.has(m.mediaType) ? 'failed' : 'succeeded') : 'in_progress';
      }
    }
    return host.ok(req, userId, 200, { data: withCheck(m) });
  };

  router.on('POST', '/2/media/upload', (req) => {
    const a = host.auth(req, 'media.write');
    if (!('userId' in a)) return a;
    const command = str(req.body.command);
    if (command === 'INIT') return init(req, a.userId, req.body);
    if (command === 'APPEND') return append(req, a.userId, host.media.get(str(req.body.media_id) ?? ''));
    if (command === 'FINALIZE') return finalize(req, a.userId, host.media.get(str(req.body.media_id) ?? ''));
    if (req.bodyKind !== 'multipart') return host.invalid('media', 'Expected multipart/form-data with a media part.');
    const part = req.files.find((f) => f.name === 'media');
    if (!part) return host.invalid('media', 'media is required');
    const mediaType = str(req.body.media_type) ?? part.contentType ?? 'image/png';
    const category = str(req.body.media_category) ?? 'tweet_image';
    if (part.data.length > 5 * 1024 * 1024) return host.invalid('media', 'Image file size must be <= 5242880 bytes');
    const m = create(a.userId, mediaType, category, part.data.length);
    m.chunks.set(0, part.data);
    return finalize(req, a.userId, m);
  });
  router.on('GET', '/2/media/upload', (req) => {
    const a = host.auth(req, 'media.write');
    if (!('userId' in a)) return a;
    if (req.query.get('command') !== 'STATUS') return host.invalid('command', 'command must be STATUS');
    return status(req, a.userId, req.query.get('media_id') ?? undefined);
  });
  router.on('POST', '/2/media/upload/initialize', (req) => {
    const a = host.auth(req, 'media.write');
    if (!('userId' in a)) return a;
    if (req.bodyKind !== 'json') return host.invalid('body', 'Expected a JSON body.');
    return init(req, a.userId, req.body);
  });
  router.on('POST', '/2/media/upload/:id/append', (req) => {
    const a = host.auth(req, 'media.write');
    if (!('userId' in a)) return a;
    return append(req, a.userId, host.media.get(req.params.id!));
  });
  router.on('POST', '/2/media/upload/:id/finalize', (req) => {
    const a = host.auth(req, 'media.write');
    if (!('userId' in a)) return a;
    return finalize(req, a.userId, host.media.get(req.params.id!));
  });
  router.on('POST', '/2/media/metadata', (req) => {
    const a = host.auth(req, 'media.write');
    if (!('userId' in a)) return a;
    const id = str(req.body?.id);
    const alt = req.body?.metadata?.alt_text?.text;
    const m = id ? host.media.get(id) : undefined;
    if (!m || m.ownerId !== a.userId) return host.problem(400, 'Invalid Request', 'Media id not found.');
    if (typeof alt !== 'string' || alt.length > 1000)
      return host.invalid('metadata.alt_text.text', 'alt text must be 1-1000 characters');
    m.altText = alt;
    return host.ok(req, a.userId, 200, { data: { id: m.id, associated_metadata: { alt_text: { text: alt } } } });
  });
}
