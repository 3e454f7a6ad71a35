/** The generic webhook: the event as JSON, signed with HMAC-SHA256 of the exact body when a key is set. */
import crypto from 'node:crypto';
import { request, type Sender } from './sender.js';

export const sendGeneric: Sender<{ kind: 'generic'; url: string }> = async (d, msg, ctx) => {
  const body = JSON.stringify({ event: msg.event, title: msg.title, text: msg.text, at: msg.at, data: msg.data });
  const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': 'Herald' };
  if (ctx.secret)
    headers['x-herald-signature'] = `sha256=${crypto.createHmac('sha256', ctx.secret).update(body).digest('hex')}`;
  await request('The webhook', d.url, { headers, body }, ctx);
};
