/**
 * Threads takes media only by URL (it downloads each file itself). Files of this computer reach it
 * through the media relay: each is uploaded just before its container is made, and every object
 * uploaded for a post is deleted once Threads has fetched it (its container FINISHED) or the post
 * ends, published or not, so no file stays in the bucket.
 */
import type { MediaItem, MediaRelay, RelayedMedia } from '../adapter.js';
import { PlatformError } from '../errors.js';

/** The verdict for uploaded media without a relay (docs/decisions.md §11). */
export const NEEDS_RELAY = 'Threads takes media from a public address: set up a media relay in Settings';

/** Uploads at once to the relay: enough to fill a home uplink, few enough for a small MinIO. */
export const RELAY_UPLOADS_AT_ONCE = 4;

export class RelayedUploads {
  private readonly live = new Set<RelayedMedia>();
  /** Uploads running, and those waiting for a turn (RELAY_UPLOADS_AT_ONCE at a time). */
  private running = 0;
  private readonly queue: (() => void)[] = [];

  constructor(
    private readonly relay: MediaRelay | undefined,
    private readonly signal?: AbortSignal,
  ) {}

  /** Every item needs a public URL or the relay. */
  static check(media: MediaItem[], relay: MediaRelay | undefined): void {
    if (!relay && media.some((m) => !m.publicUrl)) throw new PlatformError('threadblog', 'permanent', NEEDS_RELAY);
  }

  /** Whether `item` goes through the relay (it has no public URL of its own). */
  relayed(item: MediaItem): boolean {
    return !item.publicUrl;
  }

  /** The URL Threads fetches `item` from, uploading it first when it has none; and its object. */
  async urlFor(item: MediaItem): Promise<{ url: string; object?: RelayedMedia }> {
    if (item.publicUrl) return { url: item.publicUrl };
    if (!this.relay) throw new PlatformError('threadblog', 'permanent', NEEDS_RELAY);
    let object: RelayedMedia;
    if (this.running >= RELAY_UPLOADS_AT_ONCE) await new Promise<void>((go) => this.queue.push(go));
    this.running += 1;
    try {
      object = await this.relay.upload(item, this.signal);
    } catch (err) {
      throw new PlatformError(
        'threadblog',
        'transient',
        `Herald could not put the file on the media relay: ${(err as Error).message}`,
        { cause: err },
      );
    } finally {
      this.running -= 1;
      this.queue.shift()?.();
    }
    this.live.add(object);
    return { url: object.url, object };
  }

  /** Deletes one object (Threads has it). */
  async release(object: RelayedMedia | undefined): Promise<void> {
    if (!object || !this.live.delete(object) || !this.relay) return;
    await this.relay.remove(object);
  }

  /** Deletes every object still in the bucket (the post ended). */
  async releaseAll(): Promise<void> {
    const left = [...this.live];
    this.live.clear();
    if (this.relay) await Promise.all(left.map((o) => this.relay!.remove(o)));
  }
}

/** Runs `fn` over `items` with at most `limit` at once, answers in order; the first failure wins. */
export async function inOrder<T, R>(items: T[], limit: number, fn: (item: T, i: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < items.length) {
      const i = next++;
      try {
        out[i] = await fn(items[i], i);
      } catch (err) {
        failed = true;
        throw err;
      }
    }
  };
  // Every worker ends before this answers, so nothing is still uploading when the caller cleans up.
  const settled = await Promise.allSettled(Array.from({ length: Math.min(limit, items.length) }, worker));
  const bad = settled.find((s) => s.status === 'rejected');
  if (bad) throw bad.reason;
  return out;
}
