import { useEffect, useRef, type HTMLAttributes, type ReactNode } from 'react';
import { NETWORK_LABELS } from '../../../text/counting';
import { threadPartsText, type PostState } from '../../../text/status-text';

export function Page({ title, actions, children }: { title: string; actions?: ReactNode; children: ReactNode }) {
  return (
    <>
      <div className="row page-head">
        <h1 className="grow">{title}</h1>
        {actions}
      </div>
      {children}
    </>
  );
}

/** Scrolls the element into view whenever `key` changes to something shown (results, errors). */
export function useScrollIntoView<T extends HTMLElement>(key: unknown) {
  const ref = useRef<T>(null);
  useEffect(() => {
    if (key) ref.current?.scrollIntoView?.({ block: 'nearest', behavior: 'smooth' });
  }, [key]);
  return ref;
}

export function ErrorText({ error }: { error?: string }) {
  const ref = useScrollIntoView<HTMLParagraphElement>(error);
  return error ? (
    <p className="error" role="alert" ref={ref}>
      {error}
    </p>
  ) : null;
}

/** A result or notice, scrolled into view when it appears. */
export function Notice({
  children,
  className = 'muted',
  ...rest
}: { children?: ReactNode; className?: string } & HTMLAttributes<HTMLParagraphElement>) {
  const ref = useScrollIntoView<HTMLParagraphElement>(children);
  return children ? (
    <p {...rest} className={className} role="status" ref={ref}>
      {children}
    </p>
  ) : null;
}

/** Shown while a page's data is on its way. */
export function Loading({ what = 'Loading' }: { what?: string }) {
  return (
    <p className="muted loading" role="status" aria-busy="true" data-loading>
      {what}…
    </p>
  );
}

/** Nothing to show yet, and what to do about it. */
export function Empty({ children }: { children: ReactNode }) {
  return (
    <div className="empty muted" data-empty>
      {children}
    </div>
  );
}

export const networkName = (p: string) => (NETWORK_LABELS as Record<string, string>)[p] ?? p;

/** LinkedIn has no public @handle: the name Herald holds for a member is their display name. */
export const hasHandle = (platform: string) => platform !== 'problog';
/** How a person knows the account: "@ada.bsky.social", or a LinkedIn member's name. */
export const accountLabel = (a: { platform: string; username: string; display_name?: string }) =>
  hasHandle(a.platform) ? `@${a.username}` : a.display_name || a.username;

export function NetworkChips({ platforms }: { platforms: string[] }) {
  return (
    <span className="net-chips">
      {platforms.map((p, i) => (
        <span key={`${p}${i}`} className={`chip net net-${p}`} data-network={p}>
          {networkName(p)}
        </span>
      ))}
    </span>
  );
}

/** Beside a thread's status chip: "part 4 of 5" while it goes out, "2 of 5 parts sent" when it stopped short. */
export function ThreadPartsNote({ status, parts }: { status: string; parts: Parameters<typeof threadPartsText>[1] }) {
  const text = threadPartsText(status as PostState, parts);
  if (!text) return null;
  const total = parts && (Array.isArray(parts) ? parts.length : (parts as { total: number }).total);
  return (
    <span className="muted small" data-parts={total}>
      {' '}
      {text}
    </span>
  );
}

export function StatusChip({ status }: { status: string }) {
  const tone =
    status === 'published' || status === 'active'
      ? 'ok'
      : ['failed', 'missed', 'needs_reauth', 'needs_review'].includes(status)
        ? 'bad'
        : status === 'partially_published'
          ? 'warn'
          : '';
  return (
    <span className={`chip ${tone}`} data-status={status}>
      {status.replace(/_/g, ' ')}
    </span>
  );
}

/** A page's view switch (Month/Week, List/Slots): tabs, the chosen one marked. */
export function ViewTabs<V extends string>({
  label,
  views,
  value,
  onChange,
}: {
  label: string;
  views: readonly (readonly [V, string])[];
  value: V;
  onChange: (v: V) => void;
}) {
  return (
    <div className="row" role="tablist" aria-label={label}>
      {views.map(([v, name]) => (
        <button
          key={v}
          type="button"
          role="tab"
          aria-selected={value === v}
          className={value === v ? 'primary' : ''}
          onClick={() => onChange(v)}
        >
          {name}
        </button>
      ))}
    </div>
  );
}
