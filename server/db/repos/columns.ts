/**
 * The column list of each table read by more than one repo, named as drizzle names them (the
 * row types of schema.ts): one list per table, so a new column is added in one place.
 */

/** accounts → AccountRow. */
export const ACCOUNT_COLUMNS = `id, user_id AS userId, platform, platform_user_id AS platformUserId, username,
  display_name AS displayName, avatar, status, followers_count AS followersCount, following_count AS followingCount,
  server_url AS serverUrl, meta, created_at AS createdAt`;

/** media → MediaRow. */
export const MEDIA_COLUMNS = `id, user_id AS userId, file_name AS fileName, type, mime, size, width, height,
  alt_text AS altText, created_at AS createdAt, title, captions, duration_ms AS durationMs, pages`;

/** schedule_entries → EntryRow (the schedule and its hand-off side). */
export const ENTRY_COLUMNS = `id, user_id AS userId, draft_id AS draftId, account_id AS accountId, platform,
  fire_at AS fireAt, due_at AS dueAt, requested_at AS requestedAt, priority, attempts, status,
  next_attempt_at AS nextAttemptAt, last_error AS lastError, created_at AS createdAt,
  network_scheduled_id AS networkScheduledId, handed_off_for AS handedOffFor, force, first_text AS firstText`;
