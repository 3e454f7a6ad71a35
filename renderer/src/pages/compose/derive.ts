/**
 * Everything the composer shows that follows from what is typed, in one pure step: the
 * composition, the networks' facts and the link card in; the previews, rule issues, verdicts and
 * whether it can be sent out. Rendering draws what this answers and decides nothing itself.
 *
 * A keystroke changes one part: counting is remembered per text (preview/analysis.ts) and a
 * network's preview is kept as it was when nothing it is made from changed, so the memoised
 * components below redraw only what the key changed.
 */
import {
  altTextProblem,
  PLATFORMS,
  partOptions,
  postsForNetwork,
  type CountOptions,
  type MediaKind,
  type Platform,
  type Verdict,
} from '../../../../text/index';
import type { MediaRef, Post } from './model';
import type { NetworkFacts } from './facts';
import type { NetworkPreview } from './Previews';
import { linksOf, verdictOf } from './preview/analysis';
import type { LinkCardData } from './preview/types';
import { ruleIssues, type Issue } from './Rules';
import { threaded } from './thread-ops';

export type CardChoice = false | { url: string } | null;

export interface DeriveInput {
  posts: Post[];
  overrides: Partial<Record<Platform, string>>;
  linkCard: CardChoice;
  /** The selected networks, in PLATFORMS order. */
  platforms: Platform[];
  facts: NetworkFacts;
  /** The card the server read for `cardLink` (absent while loading or when there is none). */
  card?: { url: string; card?: LinkCardData | null };
  /** How many accounts it would go to. */
  targets: number;
  /** A media relay is set up: Threads takes the media kept in Herald (relay-ready.ts). */
  relayReady?: boolean;
}

export interface Derived {
  hasContent: boolean;
  firstPostLink: string | null;
  /** Every link of the text, in order, once each. */
  links: string[];
  /** The page the link card is for, and the post it sits under. */
  cardLink: string | null;
  cardPost: number;
  previews: NetworkPreview[];
  issues: Issue[];
  /** Per post of the editor: its verdict on each network that sends the thread (not its own text). */
  editorVerdicts: { pl: Platform; v: Verdict }[][];
  /** Networks with threads, strictest first (what Split splits for). */
  withThreads: Platform[];
  /** A post does not fit some network. */
  tooLong: boolean;
  allValid: boolean;
  canSend: boolean;
}

/** The page a choice stands for: the chosen one, else the first link of the first post. */
export function cardUrl(choice: CardChoice, firstPostLink: string | null): string | null {
  if (choice === false) return null;
  return choice?.url ?? firstPostLink;
}

/** The link card's page for these posts (the page loads the card before deriving the rest). */
export const cardLinkOf = (posts: Post[], choice: CardChoice) =>
  cardUrl(choice, linksOf(posts[0]?.text ?? '')[0] ?? null);

const NO_OPTS: CountOptions = {};
const NO_KINDS: MediaKind[] = [];
const kinds = (media: readonly MediaRef[]) => (media.length ? media.map((m) => m.type) : NO_KINDS);

// The previous answer per network: kept when nothing its preview is made from changed, so the
// memoised previews compare equal and are not drawn again.
const lastPreview = new Map<Platform, { key: unknown[]; preview: NetworkPreview }>();
const sameKey = (a: unknown[], b: unknown[]) => a.length === b.length && a.every((x, i) => x === b[i]);

function previewOf(
  platform: Platform,
  input: DeriveInput,
  card: LinkCardData | undefined,
  cardLink: string | null,
): NetworkPreview {
  const opts: CountOptions = input.facts.opts[platform] ?? NO_OPTS;
  const override = input.overrides[platform];
  // Posts and their media arrays are replaced on change and kept otherwise: identity is enough.
  const key = [
    override?.trim() ? override : input.posts,
    ...(override?.trim() ? input.posts.map((p) => p.media) : []),
    opts,
    input.facts.ids[platform],
    card,
    cardLink,
  ];
  const last = lastPreview.get(platform);
  if (last && sameKey(last.key, key)) return last.preview;
  const posts = postsForNetwork(
    platform,
    input.posts.map((p) => ({ plainText: p.text, media: p.media })),
    override,
  );
  const verdicts = posts.map((p, i) => {
    const v = verdictOf(platform, p.text, kinds(p.media), partOptions(platform, i, opts));
    // Alt text over this network's limit makes the post invalid there, as the server judges it.
    const alt =
      v.valid && p.media.length > 0
        ? altTextProblem(
            platform,
            p.media.map((m) => m.altText),
            kinds(p.media),
            opts,
          )
        : undefined;
    return alt ? { ...v, valid: false, reason: alt } : v;
  });
  const found = card && cardLink ? posts.findIndex((p) => p.text.includes(cardLink)) : -1;
  // LinkedIn's later parts are comments, which carry no card: it goes with the post.
  const at = platform === 'problog' && found > 0 ? 0 : found;
  const preview: NetworkPreview = {
    platform,
    posts,
    verdicts,
    opts,
    identity: input.facts.ids[platform]!,
    valid: posts.length > 0 && verdicts.every((v) => v.valid),
    cards: at >= 0 ? posts.map((_, i) => (i === at ? card : undefined)) : undefined,
  };
  lastPreview.set(platform, { key, preview });
  return preview;
}

// The previous row of verdicts per editor: kept when its verdicts are the same (remembered)
// ones, so the memoised editors a key did not touch are not drawn again (in a 25-part thread,
// 24 of them on every key).
let lastRows: EditorRow[] = [];
type EditorRow = { pl: Platform; v: Verdict }[];
const sameRow = (row: EditorRow, platforms: Platform[], verdict: (pl: Platform) => Verdict) =>
  row.length === platforms.length && row.every((x, k) => x.pl === platforms[k] && x.v === verdict(x.pl));

export function derive(input: DeriveInput): Derived {
  const { posts, platforms, facts } = input;
  const firstPostLink = linksOf(posts[0]?.text ?? '')[0] ?? null;
  const links = [...new Set(posts.flatMap((p) => linksOf(p.text)))];
  const cardLink = cardUrl(input.linkCard, firstPostLink);
  const cardPost = Math.max(0, cardLink ? posts.findIndex((p) => p.text.includes(cardLink)) : 0);
  // The previews show the card the server read (its image only through Herald: links are not loaded).
  const loaded = input.card?.url === cardLink ? input.card?.card : undefined;
  const card = loaded ? { ...loaded, imageUrl: null } : undefined;
  const built = PLATFORMS.filter((p) => platforms.includes(p)).map((pl) => previewOf(pl, input, card, cardLink));
  const issues = ruleIssues(built, posts, input.relayReady);
  // A network's warning is one of its issues; a preview is copied only when it has one.
  const previews = built.map((p) => {
    const warning = issues.find((x) => x.platform === p.platform && x.kind === 'public-media')?.text;
    return warning ? { ...p, warning } : p;
  });
  const hasContent = posts.some((p) => p.media.length > 0 || p.text.trim() !== '');
  const threadPlatforms = platforms.filter((pl) => !input.overrides[pl]?.trim());
  const editorVerdicts = posts.map((p, i) => {
    const of = (pl: Platform) => verdictOf(pl, p.text, kinds(p.media), partOptions(pl, i, facts.opts[pl]));
    const was = lastRows[i];
    if (was && sameRow(was, threadPlatforms, of)) return was;
    return threadPlatforms.map((pl) => ({ pl, v: of(pl) }));
  });
  lastRows = editorVerdicts;
  const tooLong =
    editorVerdicts.some((vs) => vs.some((x) => x.v.count > x.v.limit)) ||
    previews.some((p) => p.verdicts.some((v) => !v.valid && v.reason !== 'the post is empty'));
  const allValid = hasContent && previews.every((p) => p.valid);
  return {
    hasContent,
    firstPostLink,
    links,
    cardLink,
    cardPost,
    previews,
    issues,
    editorVerdicts,
    withThreads: threaded(platforms, facts.opts),
    tooLong,
    allValid,
    canSend: allValid && input.targets > 0,
  };
}
