/**
 * After publishing: published posts listed, deleted and edited on their network, and their
 * metrics over time. Types only from the contracts, so it stays browser-safe.
 */
import type * as after from '../server/contracts/after-publish.js';
import type * as publishing from '../server/contracts/publishing.js';
import { ClientCore, type In, type Out, type Query, type QueryOf } from './client-core.js';

export class AfterPublishMethods extends ClientCore {
  /** The history's rows with ids, `deletedAt` and `editedAt`. */
  publications(query: QueryOf<typeof publishing.historyQuery> = {}) {
    return this.request<Out<typeof publishing.historyResponse>>('GET', '/microblog/publications', {
      query: query as Query,
    });
  }
  /** Deletes a published post on its network (and the later parts of its thread Herald sent). */
  deletePublication(id: string) {
    return this.request<Out<typeof after.deletePublicationResponse>>(
      'DELETE',
      `/microblog/publications/${encodeURIComponent(id)}`,
    );
  }
  /** Edits a published post's text where the network allows it; else NOT_SUPPORTED. */
  editPublication(id: string, body: In<typeof after.editPublicationBody>) {
    return this.request<Out<typeof after.editPublicationResponse>>(
      'PUT',
      `/microblog/publications/${encodeURIComponent(id)}`,
      { body },
    );
  }
  /** Published posts with their latest counts (null where the network does not say). */
  analyticsPosts(query: QueryOf<typeof after.analyticsQuery> = {}) {
    return this.request<Out<typeof after.analyticsPostsResponse>>('GET', '/analytics/posts', { query: query as Query });
  }
  /** One published post's counts with every read of them. */
  analyticsPost(publicationId: string) {
    return this.request<Out<typeof after.analyticsPostResponse>>(
      'GET',
      `/analytics/posts/${encodeURIComponent(publicationId)}`,
    );
  }
  /** The metrics as CSV text: one row per post, or per read with `history: 'true'`. */
  analyticsCsv(query: QueryOf<typeof after.analyticsCsvQuery> = {}) {
    return this.request<string>('GET', '/analytics/export', { query: query as Query, asText: true });
  }
  /** Reads the counts again now (202): all published posts, or the ones named. */
  refreshAnalytics(body: In<typeof after.refreshBody> = {}) {
    return this.request<Out<typeof after.refreshResponse>>('POST', '/analytics/refresh', { body });
  }
}
