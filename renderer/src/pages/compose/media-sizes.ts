/**
 * The byte size of media a draft opened from the server carries (its media refs hold no size;
 * uploads of this session know theirs), asked with a HEAD of each media URL, so the image-size
 * rules (Rules.tsx) hold for a reopened draft too. Videos are left out (no size rule), as are
 * items that cannot be asked (the rule then stays silent, as before).
 */
import type { Composition, MediaRef } from './model';

export async function mediaSizes(refs: MediaRef[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  const unknown = [
    ...new Map(refs.filter((m) => m.size === undefined && m.type !== 'video').map((m) => [m.mediaId, m])).values(),
  ];
  await Promise.all(
    unknown.map(async (m) => {
      try {
        const res = await fetch(m.url, { method: 'HEAD' });
        const n = Number(res.headers.get('content-length'));
        if (res.ok && Number.isSafeInteger(n) && n > 0) out.set(m.mediaId, n);
      } catch {
        /* unknown, as before */
      }
    }),
  );
  return out;
}

/** `c` with the sizes filled in where a media ref has none (nothing else changes; not an edit). */
export function withSizes(c: Composition, sizes: Map<string, number>): Composition {
  if (sizes.size === 0) return c;
  return {
    ...c,
    posts: c.posts.map((p) => ({
      ...p,
      media: p.media.map((m) =>
        m.size === undefined && sizes.has(m.mediaId) ? { ...m, size: sizes.get(m.mediaId) } : m,
      ),
    })),
  };
}
