/**
 * Published posts after the fact: taken down on their network (a thread's later parts first, so
 * no part is left answering a missing one) or edited where the network allows it. A post already
 * gone from the network is an outcome the answer states, never a failure.
 */
import type { Platform } from '../../core/config.js';
import { HeraldError } from '../../core/errors.js';
import type { Repos } from '../../db/repos/index.js';
import type { PublishedRow } from '../../db/repos/after-publish.repo.js';
import type { DeleteOutcome } from '../../platforms/after-publish.js';
import { NETWORK_NAMES, PlatformError } from '../../platforms/errors.js';
import type { CredentialsService } from '../accounts/credentials.service.js';
import type { Deps } from '../deps.js';
import { toHeraldError } from '../platform-errors.js';

export interface DeleteResult {
  success: true;
  id: string;
  deletedAt: string;
  /** Each part Herald sent, last first, and whether the network deleted it or no longer held it. */
  parts: { position: number; outcome: DeleteOutcome }[];
  message: string;
}

export class PublicationsService {
  constructor(
    private readonly deps: Deps,
    private readonly repos: Pick<Repos, 'afterPublish' | 'metrics' | 'accounts'>,
    private readonly credentials: CredentialsService,
  ) {}

  private published(userId: string, id: string): PublishedRow {
    const pub = this.repos.afterPublish.own(id, userId);
    if (!pub) throw new HeraldError('NOT_FOUND', `No publication ${id}`);
    return pub;
  }

  private account(pub: PublishedRow) {
    const row = this.repos.accounts.byId(pub.accountId);
    if (!row)
      throw new HeraldError(
        'NOT_FOUND',
        `The ${NETWORK_NAMES[pub.platform as Platform]} account of this post is no longer connected to Herald`,
      );
    return row;
  }

  async delete(userId: string, id: string): Promise<DeleteResult> {
    const pub = this.published(userId, id);
    const network = NETWORK_NAMES[pub.platform as Platform];
    const parts = this.repos.afterPublish.sentParts(pub.id);
    if (pub.deletedAt)
      return { success: true, id, deletedAt: pub.deletedAt, parts: [], message: `Already deleted from ${network}` };
    if (!parts.length)
      throw new HeraldError('INVALID_INPUT', `This post was never published on ${network}: nothing to delete`);
    const adapter = this.deps.platforms.get(pub.platform as Platform);
    if (!adapter.deletePost) throw new HeraldError('NOT_SUPPORTED', `${network} does not let Herald delete posts`);
    const outcomes: DeleteResult['parts'] = [];
    try {
      await this.credentials.withCredentials(this.account(pub), async (ctx) => {
        for (const part of [...parts].reverse()) {
          const ref = {
            id: part.networkId,
            cid: part.networkCid ?? undefined,
            url: part.url ?? '',
            position: part.position,
          };
          outcomes.push({ position: part.position, outcome: await adapter.deletePost!(ctx, ref) });
        }
      });
    } catch (err) {
      throw toHeraldError(err, this.deps.clock.now());
    }
    const deletedAt = new Date(this.deps.clock.now()).toISOString();
    this.repos.afterPublish.markDeleted(pub.id, deletedAt);
    this.repos.metrics.stop(pub.id, 'deleted');
    const gone = outcomes.filter((o) => o.outcome === 'gone').length;
    const what = parts.length === 1 ? 'the post' : `the post and its ${parts.length - 1} later part(s)`;
    const message =
      gone === outcomes.length
        ? `${network} no longer held ${what} (deleted there already)`
        : `Deleted ${what} from ${network}` + (gone ? ` (${gone} part(s) were already gone)` : '');
    return { success: true, id, deletedAt, parts: outcomes, message };
  }

  async edit(userId: string, id: string, text: string) {
    const pub = this.published(userId, id);
    const network = NETWORK_NAMES[pub.platform as Platform];
    const adapter = this.deps.platforms.get(pub.platform as Platform);
    if (!adapter.editPost)
      throw new HeraldError('NOT_SUPPORTED', adapter.editNote ?? `${network} does not allow editing a published post`);
    if (pub.deletedAt)
      throw new HeraldError('INVALID_INPUT', `This post was deleted from ${network}: it cannot be edited`);
    const first = this.repos.afterPublish.sentParts(pub.id)[0];
    if (!first) throw new HeraldError('INVALID_INPUT', `This post was never published on ${network}: nothing to edit`);
    try {
      await this.credentials.withCredentials(this.account(pub), (ctx) =>
        adapter.editPost!(ctx, { id: first.networkId, url: first.url ?? '', position: first.position }, text),
      );
    } catch (err) {
      if (err instanceof PlatformError && (err.status === 404 || err.status === 410)) {
        const at = new Date(this.deps.clock.now()).toISOString();
        this.repos.afterPublish.markDeleted(pub.id, at);
        this.repos.metrics.stop(pub.id, 'deleted');
        throw new HeraldError('NOT_FOUND', `The post is no longer on ${network} (deleted there): nothing to edit`);
      }
      throw toHeraldError(err, this.deps.clock.now());
    }
    const editedAt = new Date(this.deps.clock.now()).toISOString();
    this.repos.afterPublish.markEdited(pub.id, first.id, text, editedAt);
    return { success: true as const, id, editedAt, text, message: `Edited the post on ${network}` };
  }
}
