/** What an alert says for each event: a title and one or two plain sentences. */
import type { AlertMessage } from './senders/index.js';

import { ALERT_EVENTS } from '../../contracts/alerts.js';

export { ALERT_EVENTS };
export type AlertEvent = (typeof ALERT_EVENTS)[number];

const NETWORK: Record<string, string> = {
  microblog: 'X',
  skyblog: 'Bluesky',
  fedblog: 'Mastodon',
  threadblog: 'Threads',
  problog: 'LinkedIn',
};

const str = (v: unknown) => (typeof v === 'string' ? v : v == null ? '' : JSON.stringify(v));
const net = (d: Record<string, unknown>) => NETWORK[str(d.platform)] ?? str(d.platform);
const day = (v: unknown) => str(v).slice(0, 10);

function words(event: string, d: Record<string, unknown>): { title: string; text: string } {
  switch (event) {
    case 'post.failed': {
      const again = d.nextAttemptAt ? ` Herald tries again at ${str(d.nextAttemptAt)}.` : '';
      return { title: `A post to ${net(d)} failed`, text: `${str(d.error) || 'The network refused it.'}${again}` };
    }
    case 'post.missed':
      return { title: `A post to ${net(d)} was missed`, text: str(d.error) || 'It was not sent in time.' };
    case 'account.needs_reauth':
      return { title: `Your ${net(d)} account needs connecting again`, text: 'Posts to it wait until you connect it.' };
    case 'account.expiring':
      return {
        title: `Your ${net(d)} account's sign-in expires on ${day(d.expiresAt)}`,
        text: 'Connect it again before then.',
      };
    case 'credits.low':
      return { title: 'Herald credits are running low', text: `${str(d.balance)} credits left this month.` };
    case 'xspend.near_cap':
      return {
        title: "X spend is near this month's cap",
        text: `$${str(d.monthUsd)} of the $${str(d.capUsd)} cap spent.`,
      };
    case 'network.version_expiring':
      return {
        title: `LinkedIn API version ${str(d.version)} ends on ${day(d.endsAt)}`,
        text: 'Move to a newer version in Settings (linkedinVersion) before then.',
      };
    default:
      return { title: 'Herald test alert', text: 'Alerts from Herald reach you here.' };
  }
}

export function alertMessage(key: string, event: string, data: Record<string, unknown>): AlertMessage {
  return { key, event, ...words(event, data), at: str(data.at), data };
}
