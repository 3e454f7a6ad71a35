// Threads simulator: media containers. POST /{user}/threads makes a TEXT, IMAGE, VIDEO or CAROUSEL
// container (text, reply_control, reply_to_id, options and carousel children checked); Meta fetches
// an IMAGE's or VIDEO's URL itself, once, and the container goes IN_PROGRESS → FINISHED (or ERROR).
import type { SimReply, SimRequest } from './common.js';
import { errors, params } from './threads.graph.js';
import { checkThreadsOptions } from './threads.options.js';
import type { ThreadsContainer, ThreadsState } from './threads.types.js';

const REPLY_CONTROLS = [
  'everyone',
  'accounts_you_follow',
  'mentioned_only',
  'parent_post_author_only',
  'followers_only',
];

/** Moves an IN_PROGRESS container on once its time has come and its media (if any) arrived. */
export function refreshStatus(c: ThreadsContainer): void {
  if (c.status !== 'IN_PROGRESS' || Date.now() < c.readyAt) return;
  if (c.mediaUrl && !c.fetched && c.errorMessage === undefined) return; // still downloading
  c.status = c.errorMessage === undefined ? 'FINISHED' : 'ERROR';
}

/** The handler of POST /{user}/threads. */
export function threadsContainerCreate(ctx: {
  state: ThreadsState;
  auth: (req: SimRequest) => { userId: string; token: string } | SimReply;
  nextId: () => string;
  /** How long a container stays IN_PROGRESS, ms. */
  readyMs: number;
}): (req: SimRequest) => Promise<SimReply> {
  const { state, auth, nextId, readyMs } = ctx;
  // Meta downloads the media itself, once, when the container is made; a failed download fails
  // the container (status ERROR with Threads' own error_message codes).
  const fetchMedia = async (c: ThreadsContainer) => {
    const seen = { url: c.mediaUrl!, status: 0, ok: false };
    (state.fetches ??= []).push(seen);
    try {
      const res = await fetch(c.mediaUrl!);
      seen.status = res.status;
      const type = res.headers.get('content-type') ?? '';
      const want = c.mediaType === 'VIDEO' ? 'video/' : 'image/';
      if (!res.ok || !type.startsWith(want)) throw new Error(`HTTP ${res.status} ${type}`);
      c.fetched = { contentType: type, bytes: Buffer.from(await res.arrayBuffer()) };
      seen.ok = true;
    } catch {
      c.errorMessage = c.mediaType === 'VIDEO' ? 'FAILED_DOWNLOADING_VIDEO' : 'UNKNOWN';
    }
  };
  return async (req) => {
    const a = auth(req);
    if (!('userId' in a)) return a;
    if (req.params.userId !== a.userId && req.params.userId !== 'me') return errors.unknownObject(req.params.userId!);
    const p = params(req);
    const type = (p.media_type ?? '').toUpperCase();
    if (!['TEXT', 'IMAGE', 'VIDEO', 'CAROUSEL'].includes(type))
      return errors.param('The parameter media_type is required and must be TEXT, IMAGE, VIDEO or CAROUSEL');
    const text = p.text ?? '';
    if ([...text].length > 500) return errors.param('Param text must be at most 500 characters long.');
    if (type === 'TEXT' && !text) return errors.param('The parameter text is required');
    if (p.reply_control && !REPLY_CONTROLS.includes(p.reply_control))
      return errors.param(
        'Param reply_control must be one of {EVERYONE, ACCOUNTS_YOU_FOLLOW, MENTIONED_ONLY, ' +
          'PARENT_POST_AUTHOR_ONLY, FOLLOWERS_ONLY}',
      );
    if (p.reply_to_id && !state.posts.some((x) => x.id === p.reply_to_id)) return errors.mediaNotFound(p.reply_to_id);
    const checked = checkThreadsOptions(p, type, text, (id) => state.posts.some((x) => x.id === id));
    if ('refused' in checked) return errors.param(checked.refused);
    const c: ThreadsContainer = {
      options: checked.kept,
      id: nextId(),
      userId: a.userId,
      mediaType: type as ThreadsContainer['mediaType'],
      text,
      isCarouselItem: p.is_carousel_item === 'true',
      children: [],
      replyToId: p.reply_to_id,
      replyControl: p.reply_control,
      status: 'IN_PROGRESS',
      readyAt: Date.now() + readyMs,
    };
    if (type === 'IMAGE' || type === 'VIDEO') {
      c.mediaUrl = type === 'IMAGE' ? p.image_url : p.video_url;
      if (!c.mediaUrl) return errors.param(`The parameter ${type === 'IMAGE' ? 'image_url' : 'video_url'} is required`);
      if (p.alt_text !== undefined) c.altText = p.alt_text;
    }
    if (type === 'CAROUSEL') {
      const kids = (p.children ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      if (kids.length < 2 || kids.length > 20)
        return errors.param('The parameter children must contain between 2 and 20 items');
      for (const k of kids) {
        const child = state.containers.get(k);
        if (!child || child.userId !== a.userId || !child.isCarouselItem) return errors.mediaNotFound(k);
        refreshStatus(child);
        if (child.status !== 'FINISHED') return errors.param(`Carousel item ${k} is not ready`);
      }
      c.children = kids;
    }
    state.containers.set(c.id, c);
    if (c.mediaUrl) void fetchMedia(c);
    return { status: 200, body: { id: c.id } };
  };
}
