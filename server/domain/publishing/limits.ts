/**
 * Every network's limits are checked for every target before anything is sent or charged, so a
 * post that one network would refuse stops the whole publish with a clear INVALID_INPUT.
 */
import type { Platform } from '../../config.js';
import { HeraldError, type ErrorDetail } from '../../errors.js';
import { NETWORK_NAMES } from '../../platforms/errors.js';
import type { AccountRow } from '../accounts/accounts.service.js';
import type { PartPlan } from './plan.js';

export function checkParts(targets: { account: AccountRow; parts: PartPlan[] }[]): void {
  const details: ErrorDetail[] = [];
  for (const { account, parts } of targets) {
    const platform = account.platform as Platform;
    const name = NETWORK_NAMES[platform];
    if (parts.length === 0) details.push({ path: platform, message: `nothing to publish to ${name}` });
  }
  if (details.length > 0) {
    throw new HeraldError('INVALID_INPUT', `The post does not fit: ${details.map((d) => d.message).join('; ')}`, { details });
  }
}
