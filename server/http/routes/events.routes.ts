import * as c from '../../contracts/events.js';
import type { Services } from '../../domain/services.js';
import { defineRoute, parseOrThrow, type RouteDef } from '../route.js';
import { streamEvents } from '../sse.js';

export const eventRoutes = (s: Services): RouteDef[] => [
  defineRoute({
    method: 'get',
    path: '/events',
    tag: 'Events',
    summary: 'Server-Sent Events: every change of your posts and credits',
    description:
      'text/event-stream. Each event has an increasing `id`, an `event` (post.scheduled, post.sending, ' +
      'post.published, post.failed, post.missed, post.cancelled, account.needs_reauth, credits.changed) and ' +
      'JSON `data` with `at`, and draftId, accountId and platform on post events. Send Last-Event-ID to ' +
      'resume after that id (events are kept 7 days); without it the stream starts with the next event. A ' +
      'comment line every 15 s keeps it alive. A client that stops reading is dropped with a last ' +
      '`stream.dropped` event; reconnect with the last id you read.',
    responseType: 'text/event-stream',
    errors: ['INVALID_INPUT'],
    handler: ({ auth, req, res }) => {
      const header = req.headers['last-event-id'];
      const given =
        typeof header === 'string' && header.trim() !== ''
          ? Number(parseOrThrow(c.lastEventId, header.trim(), 'query'))
          : undefined;
      streamEvents(s.events, auth.user.id, given ?? s.events.latestId(auth.user.id), req, res);
    },
  }),
];
