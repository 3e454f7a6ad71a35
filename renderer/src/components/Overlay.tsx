/**
 * A modal dialog over the page: Esc or a click outside closes it, focus moves into it and comes
 * back to where it was when it closes.
 */
import { useEffect, useRef, type ReactNode } from 'react';
import './overlay.css';

export function Overlay({
  title,
  onClose,
  children,
  name,
}: {
  title: string;
  onClose: () => void;
  children: ReactNode;
  name: string;
}) {
  const box = useRef<HTMLDivElement>(null);
  const close = useRef(onClose);
  close.current = onClose;
  useEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    const first = box.current?.querySelector<HTMLElement>('[data-autofocus]') ?? box.current;
    first?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        e.preventDefault();
        e.stopPropagation();
        close.current();
      }
      // Focus stays inside the dialog.
      if (e.key === 'Tab' && box.current) {
        const items = [...box.current.querySelectorAll<HTMLElement>('button, a[href], input, select, textarea')].filter(
          (el) => !el.hasAttribute('disabled'),
        );
        if (!items.length) return;
        const [a, z] = [items[0], items[items.length - 1]];
        if (e.shiftKey && document.activeElement === a) {
          e.preventDefault();
          z.focus();
        } else if (!e.shiftKey && document.activeElement === z) {
          e.preventDefault();
          a.focus();
        }
      }
    };
    window.addEventListener('keydown', onKey, true);
    return () => {
      window.removeEventListener('keydown', onKey, true);
      before?.focus?.();
    };
  }, []);
  return (
    <div
      className="overlay"
      data-overlay={name}
      onMouseDown={(e) => {
        if (e.target === e.currentTarget) onClose();
      }}
    >
      <div
        className="overlay-box"
        role="dialog"
        aria-modal="true"
        aria-labelledby={`${name}-title`}
        ref={box}
        tabIndex={-1}
      >
        <h2 id={`${name}-title`}>{title}</h2>
        {children}
      </div>
    </div>
  );
}
