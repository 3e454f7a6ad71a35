/** ntfy: the message is the body of a POST to the topic; title and tags in headers. */
import { request, type Sender } from './sender.js';

export const sendNtfy: Sender<{ kind: 'ntfy'; base: string; topic: string; user?: string; password?: string }> = async (
  d,
  msg,
  ctx,
) => {
  const headers: Record<string, string> = {
    'content-type': 'text/plain; charset=utf-8',
    // Header values are Latin-1: ntfy reads RFC 2047 encoded words for anything else.
    title: `=?UTF-8?B?${Buffer.from(msg.title).toString('base64')}?=`,
    tags: msg.event.replace(/[^a-z_]+/gi, '_'),
  };
  if (d.user) headers.authorization = `Basic ${Buffer.from(`${d.user}:${d.password ?? ''}`).toString('base64')}`;
  await request('ntfy', `${d.base}/${encodeURIComponent(d.topic)}`, { headers, body: msg.text }, ctx);
};
