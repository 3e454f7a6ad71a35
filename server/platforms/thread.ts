/**
 * Publishes a thread as a reply chain, resuming after the parts already published: part i
 * replies to part i-1 and names part 0 as the root. The caller's hooks commit each part's
 * state (`sending` before the network call, `sent` with its id after) so a crash or failure
 * never re-sends a published part.
 */
import type { CallContext, PlatformAdapter, PostInput, PostRef } from './adapter.js';

export interface ThreadHooks {
  /** Called before part `index` goes out; must commit `sending` durably. */
  beforeSend(index: number): void | Promise<void>;
  /** Called with the network's ref as soon as part `index` is published. */
  afterSend(index: number, ref: PostRef): void | Promise<void>;
}

export async function publishThread(
  adapter: PlatformAdapter,
  ctx: CallContext,
  parts: Omit<PostInput, 'replyTo' | 'root'>[],
  published: PostRef[],
  hooks: ThreadHooks,
): Promise<PostRef[]> {
  const refs = [...published];
  for (let i = refs.length; i < parts.length; i++) {
    await hooks.beforeSend(i);
    const ref = await adapter.publishPost(ctx, {
      ...parts[i],
      replyTo: i > 0 ? refs[i - 1] : undefined,
      root: i > 0 ? refs[0] : undefined,
    });
    refs.push(ref);
    await hooks.afterSend(i, ref);
  }
  return refs;
}
