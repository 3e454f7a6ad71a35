/**
 * Dry run (decisions §10): what each network would receive, and what it would cost, answered
 * from the plan of a real publish or schedule (plan.ts, charge.ts), stopping before anything is
 * charged, sent, stored or scheduled.
 *
 * Not built yet, so answered as such: link cards (`linkCard: null`) and a draft's language
 * (`language: null`: drafts carry none yet). X's pay-per-use prices are constants here until the
 * settings `xPriceUsd` and `xPriceWithUrlUsd` exist.
 */
import type { AccountRow } from '../../db/repos/publish-inputs.repo.js';
import type { PartPlan } from './plan.js';

/** X pay-per-use, Content Create (X's pricing page, 2026; decisions §10): per post, and per post with a URL. */
export const X_PRICE_USD = 0.015;
export const X_PRICE_WITH_URL_USD = 0.2;

const HAS_URL = /\bhttps?:\/\/\S/i;

export interface DryRunTarget { account: AccountRow; parts: PartPlan[]; credits: number; skipped?: boolean }

export function dryRunAnswer(targets: DryRunTarget[], balance: number) {
  let xCost = 0;
  const plan = targets.map((t) => {
    if (t.account.platform === 'microblog' && !t.skipped) {
      for (const p of t.parts) xCost += HAS_URL.test(p.text) ? X_PRICE_WITH_URL_USD : X_PRICE_USD;
    }
    return {
      accountId: t.account.id, platform: t.account.platform,
      posts: t.skipped ? [] : t.parts.map((p) => ({ text: p.text, media: p.media, linkCard: null, language: null })),
      credits: t.credits,
      ...(t.skipped ? { skipped: true } : {}),
    };
  });
  const needed = targets.reduce((n, t) => n + t.credits, 0);
  return { success: true as const, dryRun: true as const, plan, credits: { needed, balance }, xCostUsd: Math.round(xCost * 1000) / 1000 };
}
