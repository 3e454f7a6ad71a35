/**
 * Drafts: an ordered list of posts (tweets) with optional per-network text (docs/decisions.md §4).
 * Every query is scoped by user: another user's draft is NOT_FOUND. Writes that touch several
 * rows run in one transaction; a draft being published is read-only.
 *
 * The service is the one door callers use; its work lives in three parts that share one reader:
 * reading and the kept list (draft-reader.ts), creating, updating and deleting (draft-writer.ts),
 * and per-network text, previews and splitting (draft-networks.ts).
 */
import type { Platform } from '../../../text/index.js';
import type { CreateDraftInput, Draft, UpdateDraftInput } from '../../contracts/drafts.js';
import { type Deps } from '../deps.js';
import type { DraftRow } from '../../db/repos/drafts.repo.js';
import type { TemplatesService } from '../templates/templates.service.js';
import { DraftReader, type ListQuery, type ListResult } from './draft-reader.js';
import { DraftWriter, type DraftsRepos } from './draft-writer.js';
import { DraftNetworks } from './draft-networks.js';

export type { ListQuery } from './draft-reader.js';

/** Reads and writes the caller's drafts (routes, the file importer, the publishing engine). */
export class DraftsService {
  private readonly reader: DraftReader;
  private readonly writer: DraftWriter;
  private readonly networks: DraftNetworks;

  /** `relayReady`: whether a media relay is set up (Threads verdicts on uploaded media). */
  constructor(deps: Deps, templates: TemplatesService, repos: DraftsRepos, relayReady: () => boolean = () => false) {
    this.reader = new DraftReader(repos.drafts, repos.tx.changeToken(), repos.evergreen);
    this.writer = new DraftWriter(deps, templates, repos, this.reader);
    this.networks = new DraftNetworks(deps, repos, this.reader, this.writer, relayReady);
  }

  // ---- reading -------------------------------------------------------------------------------

  /** The caller's draft row; NOT_FOUND for a draft that is missing or another user's. */
  row(userId: string, id: string): DraftRow {
    return this.reader.row(userId, id);
  }

  /** One draft as the API answers it. */
  get(userId: string, id: string): Draft {
    return this.reader.get(userId, id);
  }

  /**
   * Newest first. The answer is kept, and the same object returned, while the database is
   * unchanged (the HTTP layer keeps its encoded body beside it): do not mutate it.
   */
  list(userId: string, q: ListQuery): ListResult {
    return this.reader.list(userId, q);
  }

  // ---- writing -------------------------------------------------------------------------------

  /** Creates one draft in its own transaction and answers it. */
  create(userId: string, input: CreateDraftInput): Draft {
    return this.writer.create(userId, input);
  }

  /**
   * Inserts one draft with its per-network text inside the caller's transaction and answers its
   * id (the file importer: many drafts, one transaction, no answer built for each).
   */
  insertWithin(userId: string, input: CreateDraftInput, platforms: Partial<Record<Platform, string>> = {}): string {
    return this.writer.insertWithin(userId, input, platforms);
  }

  /** All or nothing: one transaction; the first failing draft rolls every one back. */
  createBatch(userId: string, input: { drafts: CreateDraftInput[]; socialSetId?: string }): Draft[] {
    return this.writer.createBatch(userId, input);
  }

  /** Changes the given fields in one transaction; a scheduled draft moves only through the schedule. */
  update(userId: string, id: string, input: UpdateDraftInput): Draft {
    return this.writer.update(userId, id, input);
  }

  /** Deletes a draft with everything that hangs on it. */
  delete(userId: string, id: string): void {
    this.writer.delete(userId, id);
  }

  // ---- per-network text ----------------------------------------------------------------------

  /** The draft's per-network text, each split into posts checked against its target accounts. */
  platforms(userId: string, id: string) {
    return this.networks.platforms(userId, id);
  }

  /** Sets (or, with empty text, removes) the draft's text for the given networks. */
  putPlatforms(userId: string, id: string, input: { platforms: { platform: Platform; content: string }[] }) {
    return this.networks.putPlatforms(userId, id, input);
  }

  /**
   * What each target account's network receives for this draft and whether it fits, counted with
   * the account's own rules (draft-networks.ts says which accounts are targets).
   */
  forNetworks(userId: string, id: string, accountIds?: string[]) {
    return this.networks.forNetworks(userId, id, accountIds);
  }

  /** Splits text into posts that fit one network, counted with an account's rules when given. */
  split(userId: string, input: { text: string; platform: Platform; accountId?: string }) {
    return this.networks.split(userId, input);
  }
}
