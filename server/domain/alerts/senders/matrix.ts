/**
 * Matrix client-server API: log in with the password (the token kept while it works), join each
 * room (answers its id, also for an alias) and send an m.text with the delivery's key as the
 * transaction id, so a retry after a lost answer is not shown twice.
 */
import { DeliveryFailed, json, request, type SendContext, type Sender } from './sender.js';

type MatrixDest = { kind: 'matrix'; base: string; user: string; password: string; rooms: string[] };

const tokens = new Map<string, string>();
const C = '/_matrix/client/v3';

async function login(d: MatrixDest, ctx: SendContext): Promise<string> {
  const key = `${d.base} ${d.user}`;
  const known = tokens.get(key);
  if (known) return known;
  const res = (await request(
    'Matrix',
    `${d.base}${C}/login`,
    json({
      type: 'm.login.password',
      identifier: { type: 'm.id.user', user: d.user },
      password: d.password,
      initial_device_display_name: 'Herald alerts',
    }),
    ctx,
  )) as { access_token?: string } | undefined;
  if (!res?.access_token) throw new DeliveryFailed('Matrix answered the login without an access token');
  tokens.set(key, res.access_token);
  return res.access_token;
}

async function sendAll(d: MatrixDest, token: string, text: string, txn: string, ctx: SendContext): Promise<void> {
  const auth = { authorization: `Bearer ${token}` };
  for (const room of d.rooms) {
    const joined = (await request(
      'Matrix',
      `${d.base}${C}/join/${encodeURIComponent(room)}`,
      { headers: { ...auth, 'content-type': 'application/json' }, body: '{}' },
      ctx,
    )) as { room_id?: string };
    const roomId = joined?.room_id ?? room;
    const body = json({ msgtype: 'm.text', body: text });
    await request(
      'Matrix',
      `${d.base}${C}/rooms/${encodeURIComponent(roomId)}/send/m.room.message/` + encodeURIComponent(txn),
      { method: 'PUT', headers: { ...auth, ...body.headers }, body: body.body },
      ctx,
    );
  }
}

export const sendMatrix: Sender<MatrixDest> = async (d, msg, ctx) => {
  const text = `${msg.title}\n${msg.text}`;
  const token = await login(d, ctx);
  try {
    await sendAll(d, token, text, msg.key, ctx);
  } catch (err) {
    // A token logged out elsewhere: log in once more.
    if (!(err instanceof DeliveryFailed) || !/ 401/.test(err.message)) throw err;
    tokens.delete(`${d.base} ${d.user}`);
    await sendAll(d, await login(d, ctx), text, msg.key, ctx);
  }
};
