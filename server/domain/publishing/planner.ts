/**
 * What each target of a publish gets, before anything is charged: the accounts a request names,
 * each network's parts of the draft (or of the texts given directly) and the options every path
 * shares (the post language, the link card). The publish service and its dry runs plan through
 * it, so a dry run answers exactly what a real publish would send.
 */
import type { Platform } from '../../core/config.js';
import type { Deps } from '../deps.js';
import type { PublishingRepos } from '../../db/repos/publishing-repos.js';
import type { AccountRow } from '../../db/repos/publish-inputs.repo.js';
import type { SocialSetsService } from '../social-sets/social-sets.service.js';
import type { PublishCharge } from './charge.js';
import { checkParts, type CheckFacts } from './limits.js';
import { checkAltTexts, checkDirectAltTexts } from './alt-required.js';
import { loadDraft, partsFor, partsFromTexts, planCard, resolveTargets, withKinds } from './plan.js';
import type {
  DirectPublish,
  MediaByUrl,
  PartPlan,
  Planned,
  PublicationOptions,
  PublishRequest,
  RelaySource,
} from './model.js';

/** Plans publishes for the publish service (plan.ts and limits.ts hold the rules it applies). */
export class PublishPlanner {
  constructor(
    private readonly deps: Deps,
    private readonly repos: Pick<PublishingRepos, 'publishInputs'>,
    private readonly sets: SocialSetsService,
    private readonly charge: PublishCharge,
    private readonly relay?: RelaySource,
  ) {}

  /** What the limit checks need besides the parts (limits.ts). */
  checkFacts(): CheckFacts {
    return { relay: this.relay?.ready() ?? false };
  }

  /** Targets: explicit list, else account ids, else the draft's selection, else its set. */
  resolveTargets(
    userId: string,
    draft: { selectedAccountIds: string[]; socialSetId: string | null },
    req: Pick<PublishRequest, 'accountIds' | 'targetAccounts'>,
  ): { account: AccountRow; communityId?: string }[] {
    return resolveTargets(this.repos.publishInputs, this.sets, userId, draft, req);
  }

  /** What each target of a draft publish gets (plan.ts): the draft's parts per network, and its options. */
  plan(
    userId: string,
    req: Pick<PublishRequest, 'draftId' | 'accountIds' | 'targetAccounts' | 'community' | 'options' | 'firstText'>,
  ): Planned {
    const draft = loadDraft(this.repos.publishInputs, userId, req.draftId);
    checkAltTexts(draft.posts, this.deps.config.requireAltText);
    const targets = this.resolveTargets(userId, draft, req).map(({ account, communityId }) => {
      const platform = account.platform as Platform;
      const options: PublicationOptions = { ...req.options, post: draft.options };
      if (platform === 'microblog') {
        const community = communityId ?? req.community?.id;
        if (community) options.communityId = community;
      }
      const parts = partsFor(platform, draft);
      if (req.firstText !== undefined && parts[0]) parts[0] = { ...parts[0], text: req.firstText };
      // The default card is the first link of the first post that network gets (its own text, when it has one).
      const firstText =
        req.firstText !== undefined || draft.overrides[platform]?.trim()
          ? (parts[0]?.text ?? '')
          : (draft.posts[0]?.plainText ?? '');
      return {
        account,
        parts,
        options: this.withDefaults(platform, options, draft.language, draft.linkCard, firstText, parts),
      };
    });
    return { draft, targets };
  }

  /**
   * A direct publish's one target: the account, its parts (limits checked) and options. Media
   * given by URL is fetched only once the text fits and the credits are there, so a refused
   * request reaches no one.
   */
  async planDirect(userId: string, req: DirectPublish, byUrl?: MediaByUrl) {
    const [{ account }] = this.resolveTargets(
      userId,
      { selectedAccountIds: [], socialSetId: null },
      { targetAccounts: [{ accountId: req.accountId, platform: req.platform }] },
    );
    let given = req.media;
    const field = byUrl?.field ?? 'mediaUrls';
    if (byUrl && byUrl.urls.length > 0) {
      // The URLs stand for their media (kind guessed from the name) until they are fetched.
      checkParts(
        [
          {
            account,
            parts: partsFromTexts(req.platform, req.texts, [...given, ...byUrl.urls.map((url) => ({ url }))]),
          },
        ],
        this.checkFacts(),
      );
      this.charge.assertCredits(userId, 1);
      // Refused for missing alt text before anything is fetched.
      if (this.deps.config.requireAltText && byUrl.peek) {
        const peeked = [...given, ...(await byUrl.peek(byUrl.urls))];
        checkDirectAltTexts(peeked.map(withKinds(this.repos.publishInputs, userId, peeked)), true, field);
      }
      given = [...given, ...(await byUrl.load(byUrl.urls))];
    }
    const media = given.map(withKinds(this.repos.publishInputs, userId, given));
    checkDirectAltTexts(media, this.deps.config.requireAltText, field);
    const parts = partsFromTexts(req.platform, req.texts, media);
    const target = {
      account,
      parts,
      options: this.withDefaults(req.platform, req.options, null, null, req.texts[0] ?? '', parts),
    };
    checkParts([target], this.checkFacts());
    return target;
  }

  /**
   * The options every path shares (drafts, schedules, the single-network endpoints): the post
   * language (the draft's, else the setting defaultLanguage) and, for networks that take a link
   * card from the client, the card's page and post.
   */
  private withDefaults(
    platform: Platform,
    options: PublicationOptions,
    language: string | null,
    card: Parameters<typeof planCard>[0],
    firstText: string,
    parts: PartPlan[],
  ): PublicationOptions {
    const out: PublicationOptions = {
      ...options,
      langs: options.langs ?? [language ?? this.deps.config.defaultLanguage],
    };
    let takesCards = false;
    try {
      takesCards = this.deps.platforms.get(platform).linkCards === true;
    } catch {
      /* no adapter: refused when sent */
    }
    // LinkedIn's later parts are comments, which carry no card: it goes with the post.
    const under = platform === 'problog' ? parts.slice(0, 1) : parts;
    const linkCard = takesCards ? planCard(card, firstText, under) : undefined;
    if (linkCard) out.linkCard = linkCard;
    return out;
  }
}
