/** Polls `fn` until it answers something truthy, and answers that; fails after `ms` naming `what`. */
export async function until<T>(what: string, fn: () => Promise<T | undefined | false>, ms = 45_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
