// Mastodon's status options as the instance checks them: a poll (2 to max_options options of at
// most max_characters_per_option, expires_in between min and max expiration, never with media),
// quoted_status_id (a status on this instance; not with media) and quote_approval_policy.
// Returns the 422 message, or the fields kept on the status.

export const POLL_LIMITS = {
  max_options: 4,
  max_characters_per_option: 50,
  min_expiration: 300,
  max_expiration: 2_629_746,
};

export interface MastoStatusOptions {
  poll?: { options: string[]; expiresIn: number; multiple: boolean };
  quotedStatusId?: string;
  quoteApprovalPolicy?: string;
}

const bool = (v: unknown) => v === true || v === 'true' || v === '1';

export function checkMastoOptions(
  b: Record<string, any>,
  hasMedia: boolean,
  statusExists: (id: string) => boolean,
): { refused: string } | { kept: MastoStatusOptions } {
  const kept: MastoStatusOptions = {};
  if (b.poll !== undefined && b.poll !== null) {
    const options: unknown[] = Array.isArray(b.poll.options) ? b.poll.options : [];
    const expiresIn = Number(b.poll.expires_in);
    if (hasMedia) return { refused: 'Validation failed: Media attachments cannot be attached to a poll' };
    if (options.length < 2) return { refused: 'Validation failed: Poll must have at least 2 options' };
    if (options.length > POLL_LIMITS.max_options)
      return { refused: `Validation failed: Poll can't contain more than ${POLL_LIMITS.max_options} items` };
    if (options.some((o) => typeof o !== 'string' || [...o].length > POLL_LIMITS.max_characters_per_option))
      return { refused: 'Validation failed: Poll options are too long' };
    if (!Number.isInteger(expiresIn) || expiresIn < POLL_LIMITS.min_expiration)
      return { refused: 'Validation failed: Poll expiration must be at least 5 minutes' };
    if (expiresIn > POLL_LIMITS.max_expiration)
      return { refused: 'Validation failed: Poll expiration is too far in the future' };
    kept.poll = { options: options as string[], expiresIn, multiple: bool(b.poll.multiple) };
  }
  if (b.quoted_status_id !== undefined) {
    const id = String(b.quoted_status_id);
    if (hasMedia) return { refused: 'Validation failed: Quote posts cannot have media attachments' };
    if (!statusExists(id)) return { refused: 'Validation failed: Quoted status could not be found' };
    kept.quotedStatusId = id;
  }
  if (b.quote_approval_policy !== undefined) {
    if (!['public', 'followers', 'nobody'].includes(String(b.quote_approval_policy)))
      return { refused: 'Validation failed: Quote approval policy is not included in the list' };
    kept.quoteApprovalPolicy = String(b.quote_approval_policy);
  }
  return { kept };
}
