/**
 * Hash routes (`#/compose?draft=<id>`): the one module pages and the app shell share, so that no
 * page imports App.tsx (which imports every page).
 */
export const PAGE_IDS = [
  'compose',
  'drafts',
  'queue',
  'calendar',
  'history',
  'analytics',
  'accounts',
  'sets',
  'templates',
  'keys',
  'credits',
  'settings',
  'networks',
] as const;

export type PageId = (typeof PAGE_IDS)[number];

/** The page and parameters the address names; an unknown page is the composer. */
export function readRoute(): { page: PageId; params: URLSearchParams } {
  const [path, query] = window.location.hash.replace(/^#\/?/, '').split('?');
  const page = PAGE_IDS.find((id) => id === path) ?? 'compose';
  return { page, params: new URLSearchParams(query ?? '') };
}

export function navigate(page: PageId, params: Record<string, string> = {}): void {
  const q = new URLSearchParams(params).toString();
  window.location.hash = `#/${page}${q ? `?${q}` : ''}`;
}
