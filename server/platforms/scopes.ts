/**
 * The OAuth scopes Herald asks each network (and the sign-in provider) for: the one list, read by
 * the OAuth clients when they ask and by the networks endpoint, which shows them in Settings →
 * Networks (the UI keeps no copy). A leaf, so the endpoint loads no OAuth client to answer.
 */
export const X_SCOPES = ['tweet.read', 'tweet.write', 'users.read', 'media.write', 'offline.access', 'follows.write'];
export const THREADS_SCOPES = [
  'threads_basic',
  'threads_content_publish',
  'threads_manage_replies',
  // After publishing: reading a post's insights and deleting it (docs/decisions.md, Analytics).
  'threads_manage_insights',
  'threads_delete',
];
export const LINKEDIN_SCOPES = ['openid', 'profile', 'w_member_social'];
/** Member post analytics: LinkedIn grants it only to apps with the Community Management API product. */
export const LINKEDIN_ANALYTICS_SCOPE = 'r_member_postAnalytics';
/** What LinkedIn is asked for: analytics too unless the app is set up without (`analyticsScope: false`). */
export const linkedinScopes = (analytics = true) =>
  analytics ? [...LINKEDIN_SCOPES, LINKEDIN_ANALYTICS_SCOPE] : [...LINKEDIN_SCOPES];
/** OpenID Connect sign-in (Google by default). */
export const IDENTITY_SCOPES = ['openid', 'email', 'profile'];

/** What each app of Settings → Networks asks for. */
export const APP_SCOPES = {
  microblog: X_SCOPES,
  threadblog: THREADS_SCOPES,
  problog: linkedinScopes(),
  identity: IDENTITY_SCOPES,
} as const;
