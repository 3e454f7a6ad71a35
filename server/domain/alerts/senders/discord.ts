/** Discord: execute the webhook. */
import { json, request, type Sender } from './sender.js';

export const sendDiscord: Sender<{ kind: 'discord'; webhookId: string; token: string }> = async (d, msg, ctx) => {
  const base = ctx.discordApi.replace(/\/+$/, '');
  const url = `${base}/api/webhooks/${encodeURIComponent(d.webhookId)}/${encodeURIComponent(d.token)}`;
  // No mentions: an alert's text (a network's error) must never ping anyone.
  await request(
    'Discord',
    url,
    json({ content: `**${msg.title}**\n${msg.text}`.slice(0, 2000), allowed_mentions: { parse: [] } }),
    ctx,
  );
};
