/**
 * Drafts per network: the text a draft has for one network in place of its posts, what each
 * target account's network receives, and splitting text into posts that fit a network.
 */
import {
  checkNetworkPosts,
  countOptionsFromMeta,
  optionsVerdict,
  partOptions,
  postsForNetwork,
  splitForPlatform,
  splitThreadText,
  type Platform,
} from '../../../text/index.js';
import { nowIso } from '../../core/clock.js';
import { type Deps } from '../deps.js';
import type { AccountRow, DraftRow, PlatformRow } from '../../db/repos/drafts.repo.js';
import { HeraldError } from '../../core/errors.js';
import { THREADS_NEEDS_RELAY } from '../publishing/limits.js';
import { optionsOut, parseJson } from './draft-fields.js';
import { pollLimitsFromMeta, withPollText } from './draft-options.js';
import { withVideoLimits } from '../media/video-verdicts.js';
import { rulesFor, verdictFor, type MediaRef, type TargetRules } from './draft-text.js';
import type { DraftReader } from './draft-reader.js';
import { locked, type DraftWriter, type DraftsRepos } from './draft-writer.js';

/** Per-network text, previews and splitting for DraftsService. */
export class DraftNetworks {
  constructor(
    private readonly deps: Deps,
    private readonly repos: DraftsRepos,
    private readonly reader: DraftReader,
    private readonly writer: DraftWriter,
    private readonly relayReady: () => boolean = () => false,
  ) {}

  private platformDtos(userId: string, row: DraftRow, list: PlatformRow[]) {
    const rules = rulesFor(this.reader.targetsOf(userId, [row]).get(row.id) ?? []);
    return list.map((p) => {
      const platform = p.platform as Platform;
      return {
        id: p.id,
        draft_uuid: p.draftId,
        platform,
        content: p.content,
        created_at: p.createdAt,
        updated_at: p.updatedAt,
        posts: splitThreadText(p.content).map((text, i) => ({
          text,
          ...verdictFor(
            platform,
            text,
            [],
            (rules.get(platform) ?? [{}]).map((o) => partOptions(platform, i, o)),
          ),
        })),
      };
    });
  }

  private platformRows(draftId: string): PlatformRow[] {
    return this.repos.drafts.platforms(draftId);
  }

  /** The draft's per-network text, each split into posts checked against its target accounts. */
  platforms(userId: string, id: string) {
    const row = this.reader.row(userId, id);
    return this.platformDtos(userId, row, this.platformRows(row.id));
  }

  /** Sets (or, with empty text, removes) the draft's text for the given networks. */
  putPlatforms(userId: string, id: string, input: { platforms: { platform: Platform; content: string }[] }) {
    return this.repos.tx.run(() => {
      const row = this.reader.row(userId, id);
      if (row.status === 'publishing') throw locked();
      const now = nowIso(this.deps.clock);
      this.writer.writePlatforms(row.id, input.platforms, now);
      this.repos.drafts.touch(row.id, now);
      this.repos.handOff?.draftEdited(row.id, now); // a post handed to a network has the old text
      return this.platformDtos(userId, row, this.platformRows(row.id));
    });
  }

  /**
   * What each target account's network receives for this draft (its override, else the posts'
   * plain text; LinkedIn's later parts as comments on its first) and whether it fits, counted with the account's
   * own rules. Targets: the given accounts, else the draft's selected accounts, else its social
   * set's accounts. The publishing engine and the composer's previews read this.
   */
  forNetworks(userId: string, id: string, accountIds?: string[]) {
    const row = this.reader.row(userId, id);
    let targets: AccountRow[];
    if (accountIds && accountIds.length > 0) {
      const ids = this.writer.checkAccounts(userId, accountIds, 'accountIds');
      const rows = this.repos.accounts.ownMany(userId, ids);
      targets = ids.map((a) => rows.find((r) => r.id === a)!);
    } else {
      targets = this.reader.targetsOf(userId, [row]).get(row.id) ?? [];
    }
    const list = this.repos.drafts
      .tweetsOf([row.id])
      .map((t) => ({ plainText: t.plainText, media: parseJson<MediaRef[]>(t.media, []) }));
    const mediaIds = list.flatMap((t) => t.media.map((m) => m.mediaId));
    const kinds = this.reader.mediaKinds(userId, mediaIds);
    const alts = this.reader.mediaAlts(userId, mediaIds);
    const facts = new Map(this.repos.drafts.mediaTypes(userId, [...kinds.keys()]).map((f) => [f.id, f] as const));
    const overrides = new Map(this.platformRows(row.id).map((p) => [p.platform, p.content]));
    const options = optionsOut(row.options);
    return targets.map((account) => {
      const platform = account.platform as Platform;
      const meta = parseJson<Record<string, unknown>>(account.meta, {});
      const posts = withPollText(platform, options, postsForNetwork(platform, list, overrides.get(platform)));
      const checked = withVideoLimits(
        platform,
        meta,
        posts,
        facts,
        checkNetworkPosts(
          platform,
          posts.map((p) => ({
            text: p.text,
            media: p.media.map((m) => kinds.get(m.mediaId) ?? 'image'),
            alts: p.media.map((m) => m.altText ?? alts.get(m.mediaId)),
          })),
          countOptionsFromMeta(platform, meta),
        ),
      );
      // Threads downloads media itself: files kept by Herald need the relay (docs/decisions.md §11).
      const needsRelay = (p: (typeof posts)[number]) =>
        platform === 'threadblog' && p.media.length > 0 && !this.relayReady();
      const verdicts = posts.map((p, i) =>
        checked.posts[i].valid && needsRelay(p)
          ? { ...checked.posts[i], valid: false, reason: THREADS_NEEDS_RELAY }
          : checked.posts[i],
      );
      const { dropped, problems } = optionsVerdict(platform, options, {
        texts: posts.map((p) => p.text),
        firstMedia: posts[0]?.media.length ?? 0,
        pollLimits: pollLimitsFromMeta(platform, meta),
        handle: account.username,
      });
      return {
        accountId: account.id,
        platform,
        username: account.username,
        valid: checked.valid && verdicts.every((v) => v.valid) && problems.length === 0,
        dropped,
        problems,
        posts: posts.map((p, i) => ({
          text: p.text,
          media: p.media,
          ...(platform === 'problog' && i > 0 ? { sentAs: 'comment' as const } : {}),
          ...verdicts[i],
        })),
      };
    });
  }

  /** Splits text into posts that fit one network, counted with an account's rules when given. */
  split(userId: string, input: { text: string; platform: Platform; accountId?: string }) {
    let options: TargetRules = rulesFor([]);
    if (input.accountId) {
      const account = this.repos.accounts.own(userId, input.accountId);
      if (!account) throw new HeraldError('NOT_FOUND', 'Account not found');
      if (account.platform !== input.platform) {
        throw new HeraldError(
          'INVALID_INPUT',
          `Account ${account.id} is a ${account.platform} account, not ${input.platform}`,
          { details: [{ path: 'accountId', message: 'platform does not match the account' }] },
        );
      }
      options = rulesFor([account]);
    }
    const opts = options.get(input.platform)?.[0] ?? {};
    return splitForPlatform(input.text, input.platform, opts).map((text) => ({
      text,
      ...verdictFor(input.platform, text, [], [opts]),
    }));
  }
}
