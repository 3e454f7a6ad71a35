/**
 * X's pay-per-use spend (docs/decisions.md §15): what each post request costs (the one price function:
 * dry run, the cost recorded when a part is sent and the spend forecasts all use it), the month's
 * spend and what is scheduled, and the monthly cap, which warns or refuses.
 *
 * When the cap is checked: publishing now (and each scheduled post as it fires) counts what the
 * month has really spent plus this post; scheduling counts what is spent, what else is already
 * scheduled in the month the post fires, and this post. Refuse answers 402 SPEND_CAP_REACHED;
 * warn lets it go, with the warning in the answer (and in the log when a scheduled post fires).
 */
import { HeraldError } from '../../core/errors.js';
import type { PublishingRepos } from '../../db/repos/publishing-repos.js';
import type { Deps } from '../deps.js';
import { localMidnight, monthOf, monthPeriod, safeTimeZone } from '../credits/months.js';
import { extractUrls } from '../../../text/urls.js';
import { loadDraft, partsFor } from './plan.js';

export interface XPrices {
  priceUsd: number;
  priceWithUrlUsd: number;
  mediaMetadataPriceUsd?: number;
}

/** One post of a thread as X is sent it: its text and its media, whose alt text is a request of its own. */
export interface XPart {
  text: string;
  media?: readonly { altText?: string | null; mediaId?: string }[];
}

/**
 * USD one X post request costs: the price with a URL when the text holds one (as X finds URLs: twitter-text's rules).
 */
export function xRequestCostUsd(text: string, prices: XPrices): number {
  return extractUrls(text).length > 0 ? prices.priceWithUrlUsd : prices.priceUsd;
}

/** How many Media Metadata requests a post makes: one per media item with alt text. */
export const altTextCount = (media: XPart['media'] = []) => media.filter((m) => !!m.altText?.trim()).length;

/** USD of one post: its request, and a Media Metadata request per alt text. */
export function xPartCostUsd(part: XPart, prices: XPrices): number {
  return xRequestCostUsd(part.text, prices) + altTextCount(part.media) * (prices.mediaMetadataPriceUsd ?? 0);
}

/** USD of a thread's posts (each with its alt texts), rounded to a tenth of a cent. */
export function xPostsCostUsd(parts: readonly XPart[], prices: XPrices): number {
  return roundUsd(parts.reduce((sum, p) => sum + xPartCostUsd(p, prices), 0));
}

export const roundUsd = (usd: number) => Math.round(usd * 1000) / 1000;

const money = (usd: number) => `$${usd.toFixed(Math.abs(usd * 100 - Math.round(usd * 100)) < 1e-9 ? 2 : 3)}`;

export class XSpend {
  constructor(
    private readonly deps: Deps,
    private readonly repos: PublishingRepos & { users: { timezone(id: string): string | undefined } },
  ) {}

  get prices(): XPrices {
    return this.deps.config.x;
  }

  /** The user's zone (the setting `timeZone`), which the credit month follows too. */
  private zone(): string {
    return safeTimeZone(this.deps.config.timeZone);
  }

  /** The calendar month (the user's zone) holding `at`. */
  private month(at: number): { from: number; to: number } {
    const zone = this.zone();
    const { year, month } = monthOf(at, zone);
    return { from: localMidnight(year, month, 1, zone), to: monthPeriod(at, zone).endsAt };
  }

  /** USD the draft's posts would cost one X account. */
  draftCostUsd(userId: string, draftId: string): number {
    const draft = loadDraft(this.repos.publishInputs, userId, draftId);
    return this.postsCostUsd(userId, partsFor('microblog', draft));
  }

  /**
   * USD of posts as X will be sent them: an item without alt text of the post's own goes with the
   * one kept on the media item (as the sender resolves it), which X charges for the same.
   */
  postsCostUsd(userId: string, parts: readonly XPart[]): number {
    const stored = (m: NonNullable<XPart['media']>[number]) => {
      if (m.altText !== undefined || !m.mediaId) return m;
      const row = this.repos.publishInputs.mediaRow(m.mediaId);
      return { altText: row?.userId === userId ? row.altText : null };
    };
    return xPostsCostUsd(
      parts.map((p) => ({ text: p.text, media: p.media?.map(stored) })),
      this.prices,
    );
  }

  /**
   * The month holding `at`: spent (recorded when sent) and scheduled (pending X entries firing in it, `except` a
   * draft's own).
   */
  figures(userId: string, at = this.deps.clock.now(), except?: string) {
    const { from, to } = this.month(at);
    const monthUsd = roundUsd(this.repos.usage.spend(userId, 'microblog', from, to));
    const costs = new Map<string, number>();
    let scheduled = 0;
    for (const draftId of this.repos.schedule.pendingDrafts(
      userId,
      'microblog',
      Math.max(from, this.deps.clock.now() - 86_400_000),
      to,
    )) {
      if (draftId === except) continue;
      let cost = costs.get(draftId);
      if (cost === undefined) {
        try {
          cost = this.draftCostUsd(userId, draftId);
        } catch {
          cost = 0;
        }
        costs.set(draftId, cost);
      }
      scheduled += cost;
    }
    return { monthUsd, scheduledUsd: roundUsd(scheduled), capUsd: this.deps.config.x.monthlyCapUsd };
  }

  /**
   * Checks `addUsd` more against the cap: null when within it (or no cap, or nothing to add), a
   * warning when over it and set to warn; throws SPEND_CAP_REACHED when over it and set to refuse.
   * `forecast`: count what is scheduled in that month too (scheduling), `except` that draft's own entries.
   */
  check(userId: string, addUsd: number, f: { at?: number; forecast?: boolean; except?: string } = {}): string | null {
    const cap = this.deps.config.x.monthlyCapUsd;
    if (cap === null || addUsd <= 0) return null;
    const fig = this.figures(userId, f.at ?? this.deps.clock.now(), f.except);
    const total = roundUsd(fig.monthUsd + (f.forecast ? fig.scheduledUsd : 0) + addUsd);
    if (total <= cap) return null;
    const what =
      `This X post costs ${money(addUsd)}; with ${money(fig.monthUsd)} spent this month` +
      `${f.forecast ? ` and ${money(fig.scheduledUsd)} scheduled` : ''} that is ${money(total)}, over the ` +
      `${money(cap)} monthly cap`;
    if (this.deps.config.x.capAction === 'refuse') {
      throw new HeraldError(
        'SPEND_CAP_REACHED',
        `${what}; nothing was sent. Raise the cap or set it to warn in Settings`,
      );
    }
    return `${what} (the cap is set to warn)`;
  }
}
