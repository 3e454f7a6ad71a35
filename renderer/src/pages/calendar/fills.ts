/**
 * Evergreen fills on the calendar: the queue marks which slots an evergreen repeat filled (fills
 * only reach 24 hours ahead, and the queue lists every later slot holding a draft), so a scheduled
 * item of that draft at that slot's instant is a fill, which can be turned back into an empty slot.
 */
import { client } from '../../api';
import type { CalItem } from './model';

export interface Fill {
  setId: string;
  /** The slot's instant (ISO), as DELETE /microblog/queue/evergreen takes it. */
  at: string;
}

const fillId = (draftId: string, at: string) => `${draftId}|${Date.parse(at)}`;

/** Every set's fills, by draft and instant. */
export async function loadFills(): Promise<Map<string, Fill>> {
  const { socialSets } = await client.listSocialSets();
  const queues = await Promise.all(socialSets.map((s) => client.listQueue({ socialSetId: s.id, count: 1 })));
  const fills = new Map<string, Fill>();
  for (const q of queues)
    for (const i of q.items)
      if (i.evergreen && i.draft) fills.set(fillId(i.draft.id, i.at), { setId: q.socialSetId, at: i.at });
  return fills;
}

/** The items with their fill, when a scheduled item is one. */
export function markFills(items: CalItem[], fills: Map<string, Fill>): CalItem[] {
  if (fills.size === 0) return items;
  return items.map((i) => {
    if (i.kind !== 'scheduled' || !i.draftId) return i;
    const fill = i.targets.map((t) => fills.get(fillId(i.draftId!, t.at))).find(Boolean);
    return fill ? { ...i, fill } : i;
  });
}
