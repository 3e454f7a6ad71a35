/** What a pending progress entry waits for, in words (decisions §10 `waitingFor`). */
const WAITING: Record<string, string> = {
  storage: 'waiting: disk full',
  quota: 'waiting: network quota',
  network: 'waiting: network trouble',
  reconnect: 'waiting: reconnect the account',
};

export function waitingText(e: { waitingFor?: string | null; nextAttemptAt?: string | null }, when: (iso: string) => string): string | undefined {
  if (!e.waitingFor) return undefined;
  const what = WAITING[e.waitingFor] ?? `waiting: ${e.waitingFor}`;
  return e.nextAttemptAt ? `${what}, next try at ${when(e.nextAttemptAt)}` : what;
}
