// What the simulated audiences did with a post: tests set counts on a network's post object
// (`engage(post, {likes: 3})`) and each simulator answers them in its network's own shape.
export interface Engagement {
  likes: number;
  reposts: number;
  replies: number;
  quotes: number;
  views: number;
}

const counts = new WeakMap<object, Partial<Engagement>>();

/** Adds to the post's counts (kept beside the post object, whatever its network's shape). */
export function engage(post: object, more: Partial<Engagement>): void {
  const now = counts.get(post) ?? {};
  for (const [k, v] of Object.entries(more) as [keyof Engagement, number][]) now[k] = (now[k] ?? 0) + v;
  counts.set(post, now);
}

export function engagementOf(post: object): Engagement {
  return { likes: 0, reposts: 0, replies: 0, quotes: 0, views: 0, ...counts.get(post) };
}
