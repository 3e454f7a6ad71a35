/** Gotify: POST /message with the application token. */
import { json, request, type Sender } from './sender.js';

export const sendGotify: Sender<{ kind: 'gotify'; base: string; token: string }> = async (d, msg, ctx) => {
  const body = json({ title: msg.title, message: msg.text, priority: 5, extras: { herald: { event: msg.event } } });
  await request(
    'Gotify',
    `${d.base}/message`,
    { headers: { ...body.headers, 'x-gotify-key': d.token }, body: body.body },
    ctx,
  );
};
