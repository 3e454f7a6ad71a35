/** Telegram's bot API: sendMessage to each chat. */
import { json, request, type Sender } from './sender.js';

export const sendTelegram: Sender<{ kind: 'telegram'; token: string; chats: string[] }> = async (d, msg, ctx) => {
  const base = ctx.telegramApi.replace(/\/+$/, '');
  for (const chat of d.chats) {
    await request(
      'Telegram',
      `${base}/bot${d.token}/sendMessage`,
      json({ chat_id: chat, text: `${msg.title}\n${msg.text}`, disable_web_page_preview: true }),
      ctx,
    );
  }
};
