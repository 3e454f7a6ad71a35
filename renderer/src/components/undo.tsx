/**
 * Undo for destructive actions: the action is held back for 10 s while a toast offers Undo, so
 * undoing restores exactly what was there (same id, nothing re-created). The store lives at module
 * level, so leaving the page does not drop a pending delete: it still runs when its time is up,
 * and at once when the window is closed or reloaded. Pages hide the held-back items with
 * `useHeld()`.
 */
import { useEffect, useState, useSyncExternalStore } from 'react';
import { message } from '../api';

export const UNDO_MS = 10_000;

interface Held {
  key: string;
  text: string;
  until: number;
  timer: ReturnType<typeof setTimeout>;
  commit: () => Promise<unknown>;
  done?: () => unknown;
  /** Runs when the person presses Undo (for actions already applied, which Undo reverses). */
  undone?: () => unknown;
  /** Undo is no longer possible: the call is on its way (the item stays hidden until done). */
  sending?: boolean;
}

interface Toast {
  id: number;
  text: string;
  tone: 'ok' | 'bad';
}

let held: Held[] = [];
let toasts: Toast[] = [];
let nextToast = 1;
const listeners = new Set<() => void>();
const emit = () => {
  for (const l of listeners) l();
};
const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => {
    listeners.delete(l);
  };
};

/** A short message at the bottom of the window, gone after 6 s. */
export function toast(text: string, tone: 'ok' | 'bad' = 'ok'): void {
  const id = nextToast++;
  toasts = [...toasts, { id, text, tone }];
  emit();
  setTimeout(() => {
    toasts = toasts.filter((t) => t.id !== id);
    emit();
  }, 6_000);
}

async function commitNow(h: Held): Promise<void> {
  if (h.sending) return;
  clearTimeout(h.timer);
  held = held.map((x) => (x === h ? { ...h, sending: true } : x));
  emit();
  try {
    await h.commit();
  } catch (err) {
    toast(`${h.text} failed: ${message(err)}`, 'bad');
  }
  try {
    await h.done?.();
  } finally {
    held = held.filter((x) => x.key !== h.key);
    emit();
  }
}

/**
 * Runs `commit` in 10 s unless the person presses Undo. `key` names what it removes (pages hide
 * it meanwhile); `done` runs after the commit (or its failure), e.g. to reload a list.
 */
export function withUndo(opts: {
  key: string;
  text: string;
  commit: () => Promise<unknown>;
  done?: () => unknown;
  undone?: () => unknown;
}): void {
  const h: Held = {
    ...opts,
    until: Date.now() + UNDO_MS,
    timer: setTimeout(() => {
      void commitNow(h);
    }, UNDO_MS),
  };
  held = [...held, h];
  emit();
}

export function undo(key: string): void {
  const h = held.find((x) => x.key === key);
  if (!h || h.sending) return;
  clearTimeout(h.timer);
  held = held.filter((x) => x !== h);
  emit();
  h.undone?.();
}

/**
 * Offers Undo for 10 s for something already done (a removed part, a fresh draft): `undo`
 * puts it back. Nothing is sent when the time is up.
 */
let offers = 0;
export function offerUndo(key: string, text: string, undoIt: () => unknown): void {
  // A newer offer of the same kind replaces the older ones (they send nothing, so none is lost).
  for (const h of held) if (h.key.startsWith(`${key}.`)) clearTimeout(h.timer);
  held = held.filter((h) => !h.key.startsWith(`${key}.`));
  withUndo({ key: `${key}.${++offers}`, text, commit: async () => undefined, undone: undoIt });
}

// Closing or reloading the window: what was not undone is sent now (the page may not see the answer).
if (typeof window !== 'undefined')
  window.addEventListener('pagehide', () => {
    for (const h of held) void commitNow(h);
  });

/** Whether an item is held back for undo (and so should not be shown). */
export function useHeld(): (key: string) => boolean {
  const list = useSyncExternalStore(subscribe, () => held);
  return (key) => list.some((h) => h.key === key);
}

/** Asks before a destructive action that offers no undo. */
export function confirmAction(question: string): boolean {
  return window.confirm(question);
}

function Countdown({ until }: { until: number }) {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 500);
    return () => clearInterval(t);
  }, []);
  return <span className="muted small">{Math.max(0, Math.ceil((until - now) / 1000))} s</span>;
}

/** The toasts and undo offers; rendered once by the app shell. */
export function Toasts() {
  const h = useSyncExternalStore(subscribe, () => held);
  const t = useSyncExternalStore(subscribe, () => toasts);
  if (!h.some((x) => !x.sending) && t.length === 0) return null;
  return (
    <div className="toasts" role="status" aria-live="polite">
      {h
        .filter((x) => !x.sending)
        .map((x) => (
          <div className="toast-item" key={x.key} data-undo={x.key}>
            <span className="grow">{x.text}</span>
            <Countdown until={x.until} />
            <button type="button" onClick={() => undo(x.key)}>
              Undo
            </button>
          </div>
        ))}
      {t.map((x) => (
        <div className={`toast-item ${x.tone}`} key={x.id}>
          {x.text}
        </div>
      ))}
    </div>
  );
}
