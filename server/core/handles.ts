/**
 * How a message names a network account: "@ada.bsky.social" where the network has handles;
 * a LinkedIn member by name, since LinkedIn has no public handle and the name Herald holds for a
 * member is their display name ("@Jane Writer" would be a handle that does not exist).
 */
export function accountHandle(platform: string, username: string): string {
  return platform === 'problog' ? username : `@${username}`;
}
