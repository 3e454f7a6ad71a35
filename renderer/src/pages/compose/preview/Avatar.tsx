/** The account's picture, or its initials on a colour drawn from the handle (never a broken image). */
import { memo, useState } from 'react';
import type { Identity } from './types';

/** Pictures the page may show under its Content-Security-Policy (img-src 'self' data: blob:). */
export function showable(url: string | null | undefined): url is string {
  if (!url) return false;
  if (url.startsWith('data:') || url.startsWith('blob:')) return true;
  if (typeof window === 'undefined') return false;
  const api = window.herald?.baseUrl;
  return url.startsWith(`${window.location.origin}/`) || Boolean(api && url.startsWith(`${api}/`));
}

export function initials(name: string): string {
  const words = name
    .replace(/^@/, '')
    .split(/[\s._-]+/)
    .filter(Boolean);
  const first = [...(words[0] ?? '?')][0] ?? '?';
  const second = words.length > 1 ? [...words[words.length - 1]][0] : '';
  return (first + second).toUpperCase();
}

function hue(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (h * 31 + s.charCodeAt(i)) % 360;
  return h;
}

export const Avatar = memo(function Avatar({ identity, className }: { identity: Identity; className: string }) {
  const [broken, setBroken] = useState(false);
  if (showable(identity.avatar) && !broken)
    return <img className={className} src={identity.avatar} alt="" onError={() => setBroken(true)} />;
  return (
    <span
      className={`${className} pv-initials`}
      style={{ backgroundColor: `hsl(${hue(identity.handle)} 45% 45%)` }}
      aria-hidden="true"
    >
      {initials(identity.name || identity.handle)}
    </span>
  );
});
