/**
 * Closing the window keeps Herald in the tray so scheduled posts still fire; only Quit (or the
 * OS shutting down) ends it. The tray menu shows the next scheduled post.
 */
export interface KeepAliveState {
  quitting: boolean;
  /** False where the platform has no tray (then closing the window quits). */
  hasTray: boolean;
}

/** What to do when the user closes the window. */
export function onWindowClose(state: KeepAliveState): 'hide' | 'close' {
  return state.quitting || !state.hasTray ? 'close' : 'hide';
}

export interface NextPost {
  draftTitle: string;
  scheduledFor: string;
  platform: string;
}

export interface MenuItem {
  label: string;
  enabled?: boolean;
  action?: 'open' | 'quit';
}

/** The tray menu: the next post (or that none is scheduled), open, quit. */
export function trayMenu(next: NextPost | undefined, pending: number, formatTime: (iso: string) => string): MenuItem[] {
  const title = next
    ? `Next: ${next.draftTitle.slice(0, 40)} — ${formatTime(next.scheduledFor)} (${next.platform})`
    : 'No posts scheduled';
  return [
    { label: title, enabled: false },
    {
      label: pending > 1 ? `${pending} posts scheduled` : pending === 1 ? '1 post scheduled' : 'Queue empty',
      enabled: false,
    },
    { label: 'Open Herald', action: 'open' },
    { label: 'Quit Herald (scheduled posts stop firing)', action: 'quit' },
  ];
}
