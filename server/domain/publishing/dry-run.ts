/**
 * Dry run (docs/decisions.md §11): what each network would receive, and what it would cost, answered
 * from the plan of a real publish or schedule (plan.ts, charge.ts), stopping before anything is
 * charged, sent, stored or scheduled.
 *
 * Each post shows the link card it would carry (only on networks that take one from the client,
 * Bluesky and LinkedIn; the page's facts when Herald has read it already, else only its URL) and
 * the language sent with it. X's cost is priced by the one price function (x-spend.ts) at the
 * prices in settings, as each sent post is recorded.
 */
import type { AccountRow } from '../../db/repos/publish-inputs.repo.js';
import type { PartPlan, PublicationOptions } from './model.js';
import { roundUsd, type XPart } from './x-spend.js';
import { optionsCheck } from './limits.js';

/** A card's facts Herald already holds (LinkCardsService.cached): undefined when not read yet. */
export type CardFacts = (
  url: string,
) => { title: string; description: string; imageUrl: string | null; siteName: string | null } | null | undefined;

export interface DryRunTarget {
  account: AccountRow;
  parts: PartPlan[];
  options?: PublicationOptions;
  credits: number;
  skipped?: boolean;
}

function cardOf(t: DryRunTarget, position: number, facts?: CardFacts) {
  const planned = t.options?.linkCard;
  if (!planned || planned.position !== position) return null;
  let known: ReturnType<CardFacts>;
  try {
    known = facts?.(planned.url);
  } catch {
    known = undefined;
  }
  return { url: planned.url, ...(known ?? {}) };
}

/** `xCost`: USD of a target's posts on X (XSpend.postsCostUsd, the one price function). */
export function dryRunAnswer(
  targets: DryRunTarget[],
  balance: number,
  xCost: (parts: XPart[]) => number,
  facts?: CardFacts,
) {
  let usd = 0;
  const plan = targets.map((t) => {
    const { dropped } = optionsCheck(t.account, t.parts, t.options);
    if (t.account.platform === 'microblog' && !t.skipped) usd += xCost(t.parts);
    return {
      accountId: t.account.id,
      platform: t.account.platform,
      posts: t.skipped
        ? []
        : t.parts.map((p, i) => ({
            text: p.text,
            media: p.media,
            linkCard: cardOf(t, i, facts),
            language: t.options?.langs?.[0] ?? null,
            ...(t.account.platform === 'problog' && i > 0 ? { sentAs: 'comment' as const } : {}),
          })),
      ...(dropped.length > 0 ? { dropped } : {}),
      credits: t.credits,
      ...(t.skipped ? { skipped: true } : {}),
    };
  });
  const needed = targets.reduce((n, t) => n + t.credits, 0);
  return { success: true as const, dryRun: true as const, plan, credits: { needed, balance }, xCostUsd: roundUsd(usd) };
}
