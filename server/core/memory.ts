/**
 * Streaming a large upload allocates one buffer per chunk the HTTP parser hands over (64 KB
 * each), and V8 frees them only when it collects: it counts them as external memory and waits
 * until about 64 MB of them are outstanding. A young-generation collection every few megabytes
 * of a stream frees them while they are still young, for about a millisecond each, so a 512 MB
 * upload holds a few megabytes of spent buffers instead of 64.
 */
import v8 from 'node:v8';
import vm from 'node:vm';

type Collect = (options: { type: 'minor' | 'major' }) => void;

let collect: Collect | null | undefined;

function collector(): Collect | null {
  if (collect !== undefined) return collect;
  try {
    // The collector is a global only with --expose-gc; a fresh context picks it up once set.
    if (typeof (globalThis as { gc?: unknown }).gc !== 'function') v8.setFlagsFromString('--expose-gc');
    const gc = (globalThis as { gc?: unknown }).gc ?? vm.runInNewContext('gc');
    collect = typeof gc === 'function' ? (gc as Collect) : null;
  } catch {
    collect = null;
  }
  return collect;
}

/** Bytes of a stream between two collections. */
export const RELEASE_EVERY_BYTES = 8 * 1024 * 1024;

/** Frees the spent buffers of a stream (a young-generation collection); a no-op where that is unavailable. */
export function releaseSpentBuffers(): void {
  collector()?.({ type: 'minor' });
}
