/** Every alert service's sender, by kind. */
import type { Destination } from '../alert-url.js';
import { sendDiscord } from './discord.js';
import { sendGeneric } from './generic.js';
import { sendGotify } from './gotify.js';
import { sendMatrix } from './matrix.js';
import { sendNtfy } from './ntfy.js';
import type { AlertMessage, SendContext } from './sender.js';
import { sendTelegram } from './telegram.js';

export type { AlertMessage, SendContext } from './sender.js';
export { DeliveryFailed } from './sender.js';

export function send(dest: Destination, msg: AlertMessage, ctx: SendContext): Promise<void> {
  switch (dest.kind) {
    case 'ntfy':
      return sendNtfy(dest, msg, ctx);
    case 'gotify':
      return sendGotify(dest, msg, ctx);
    case 'telegram':
      return sendTelegram(dest, msg, ctx);
    case 'discord':
      return sendDiscord(dest, msg, ctx);
    case 'matrix':
      return sendMatrix(dest, msg, ctx);
    case 'generic':
      return sendGeneric(dest, msg, ctx);
  }
}
