/** What a pending progress entry waits for, in words (docs/decisions.md §6 `waitingFor`). */
const WAITING: Record<string, string> = {
  storage: 'waiting: disk full',
  quota: 'waiting: network quota',
  network: 'waiting: network trouble',
  reconnect: 'waiting: reconnect the account',
  processing: 'the network is processing the video',
};

export function waitingText(
  e: { waitingFor?: string | null; nextAttemptAt?: string | null; error?: string | null },
  when: (iso: string) => string,
): string | undefined {
  if (!e.waitingFor) return undefined;
  // "reconnect" also covers the locked secret store: the person must give Herald its access back.
  const locked = e.waitingFor === 'reconnect' && /secret store locked/.test(e.error ?? '');
  const what = locked
    ? 'waiting: Herald is locked — enter your passphrase'
    : (WAITING[e.waitingFor] ?? `waiting: ${e.waitingFor}`);
  return e.nextAttemptAt ? `${what}, next try at ${when(e.nextAttemptAt)}` : what;
}
