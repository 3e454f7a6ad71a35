/**
 * HeraldClient's methods for what runs after publishing: alert destinations and evergreen drafts
 * (one area of the class; see herald-client.ts). Types only from the contracts, so it stays browser-safe.
 */
import type * as alerts from '../server/contracts/alerts.js';
import type * as evergreen from '../server/contracts/evergreen.js';
import { ClientCore, type In, type Message, type Out } from './client-core.js';

export class UpkeepMethods extends ClientCore {
  alerts() {
    return this.request<Out<typeof alerts.alertsResponse>>('GET', '/alerts');
  }

  addAlert(body: In<typeof alerts.alertBody>) {
    return this.request<Out<typeof alerts.alertResponse>>('POST', '/alerts', { body });
  }

  deleteAlert(id: string) {
    return this.request<Message>('DELETE', `/alerts/${encodeURIComponent(id)}`);
  }

  testAlert(id: string) {
    return this.request<Out<typeof alerts.alertResponse>>('POST', `/alerts/${encodeURIComponent(id)}/test`);
  }

  evergreen(draftId: string) {
    return this.request<Out<typeof evergreen.evergreenResponse>>(
      'GET',
      `/microblog/drafts/${encodeURIComponent(draftId)}/evergreen`,
    );
  }

  setEvergreen(draftId: string, body: In<typeof evergreen.evergreenBody>) {
    return this.request<Out<typeof evergreen.evergreenResponse>>(
      'PUT',
      `/microblog/drafts/${encodeURIComponent(draftId)}/evergreen`,
      { body },
    );
  }

  fillEvergreen() {
    return this.request<Out<typeof evergreen.fillResponse>>('POST', '/microblog/queue/evergreen/fill');
  }

  /** Turns an evergreen fill back into an empty slot (`slot`: the item's `at` from queue()). */
  clearEvergreenFill(socialSetId: string, slot: string) {
    const q = new URLSearchParams({ socialSetId, slot });
    return this.request<Out<typeof evergreen.clearResponse>>('DELETE', `/microblog/queue/evergreen?${q}`);
  }
}
