// Threads' container options as the Graph API checks them: poll_attachment (option_a and option_b,
// up to option_d, at most 25 characters each, TEXT posts only), topic_tag (1-50 characters, no
// "." or "&"), text_entities (SPOILER ranges inside the text), is_spoiler_media (posts with media),
// quote_post_id (a published post) and at most 5 distinct links in the text.
// Returns the refusal's message, or the fields kept on the container.

export interface ThreadsOptions {
  poll?: Record<string, string>;
  topicTag?: string;
  spoilers?: { offset: number; length: number }[];
  spoilerMedia?: boolean;
  quotePostId?: string;
}

const LINK = /\bhttps?:\/\/[^\s<>"'`]+/gi;

export function checkThreadsOptions(
  p: Record<string, string | undefined>,
  type: string,
  text: string,
  postExists: (id: string) => boolean,
): { refused: string } | { kept: ThreadsOptions } {
  const kept: ThreadsOptions = {};
  const links = new Set((text.match(LINK) ?? []).map((l) => l.replace(/[.,;:!?)]+$/, '')));
  if (links.size > 5) return { refused: 'Param text must contain at most 5 links' };
  if (p.poll_attachment !== undefined) {
    let poll: Record<string, unknown>;
    try {
      poll = JSON.parse(p.poll_attachment) as Record<string, unknown>;
    } catch {
      return { refused: 'Param poll_attachment must be a JSON object' };
    }
    if (type !== 'TEXT') return { refused: 'Param poll_attachment is only supported on TEXT posts' };
    const keys = Object.keys(poll);
    if (typeof poll.option_a !== 'string' || typeof poll.option_b !== 'string')
      return { refused: 'Param poll_attachment requires option_a and option_b' };
    for (const k of keys) {
      if (!['option_a', 'option_b', 'option_c', 'option_d'].includes(k))
        return { refused: `Param poll_attachment has an unknown field ${k}` };
      const v = poll[k];
      if (typeof v !== 'string' || v.length === 0 || [...v].length > 25)
        return { refused: `Param poll_attachment.${k} must be 1 to 25 characters` };
    }
    kept.poll = poll as Record<string, string>;
  }
  if (p.topic_tag !== undefined) {
    const tag = p.topic_tag;
    if (!tag || [...tag].length > 50 || /[.&]/.test(tag))
      return { refused: 'Param topic_tag must be 1 to 50 characters and cannot contain periods or ampersands' };
    kept.topicTag = tag;
  }
  if (p.text_entities !== undefined) {
    let list: { entity_type?: string; offset?: number; length?: number }[];
    try {
      list = JSON.parse(p.text_entities);
    } catch {
      return { refused: 'Param text_entities must be a JSON array' };
    }
    if (!Array.isArray(list) || list.length > 10) return { refused: 'Param text_entities must hold at most 10 items' };
    const size = [...text].length;
    for (const e of list) {
      if (String(e.entity_type).toUpperCase() !== 'SPOILER') return { refused: 'Param text_entities: only SPOILER' };
      const offset = Number(e.offset);
      const length = Number(e.length);
      if (!Number.isInteger(offset) || !Number.isInteger(length) || offset < 0 || length < 1 || offset + length > size)
        return { refused: 'Param text_entities: a range lies outside the text' };
    }
    kept.spoilers = list.map((e) => ({ offset: Number(e.offset), length: Number(e.length) }));
  }
  if (p.is_spoiler_media !== undefined) {
    if (type === 'TEXT') return { refused: 'Param is_spoiler_media needs an image, a video or a carousel' };
    kept.spoilerMedia = p.is_spoiler_media === 'true';
  }
  if (p.quote_post_id !== undefined) {
    if (!postExists(p.quote_post_id)) return { refused: `Param quote_post_id: post ${p.quote_post_id} not found` };
    kept.quotePostId = p.quote_post_id;
  }
  return { kept };
}
