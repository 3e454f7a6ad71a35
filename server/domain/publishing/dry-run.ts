/**
 * Dry run (decisions §10): what each network would receive, and what it would cost, answered
 * from the plan of a real publish or schedule (plan.ts, charge.ts), stopping before anything is
 * charged, sent, stored or scheduled.
 *
 * Not built yet, so answered as such: link cards (`linkCard: null`) and a draft's language
 * (`language: null`: drafts carry none yet). X's cost is priced by the one price function
 * (x-spend.ts) at the prices in settings, as each sent post is recorded.
 */
import type { AccountRow } from '../../db/repos/publish-inputs.repo.js';
import type { PartPlan } from './plan.js';
import { roundUsd, xPostsCostUsd, type XPrices } from './x-spend.js';

export interface DryRunTarget { account: AccountRow; parts: PartPlan[]; credits: number; skipped?: boolean }

export function dryRunAnswer(targets: DryRunTarget[], balance: number, prices: XPrices) {
  let xCost = 0;
  const plan = targets.map((t) => {
    if (t.account.platform === 'microblog' && !t.skipped) xCost += xPostsCostUsd(t.parts.map((p) => p.text), prices);
    return {
      accountId: t.account.id, platform: t.account.platform,
      posts: t.skipped ? [] : t.parts.map((p) => ({ text: p.text, media: p.media, linkCard: null, language: null })),
      credits: t.credits,
      ...(t.skipped ? { skipped: true } : {}),
    };
  });
  const needed = targets.reduce((n, t) => n + t.credits, 0);
  return { success: true as const, dryRun: true as const, plan, credits: { needed, balance }, xCostUsd: roundUsd(xCost) };
}
