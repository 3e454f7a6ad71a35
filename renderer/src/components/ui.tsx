import type { ReactNode } from 'react';
import { NETWORK_LABELS } from '../../../text/counting';

export function Page({ title, actions, children }: { title: string; actions?: ReactNode; children: ReactNode }) {
  return (
    <>
      <div className="row" style={{ marginBottom: 16 }}>
        <h1 className="grow" style={{ margin: 0 }}>{title}</h1>
        {actions}
      </div>
      {children}
    </>
  );
}

export function ErrorText({ error }: { error?: string }) {
  return error ? <p className="error" role="alert">{error}</p> : null;
}

export const networkName = (p: string) => (NETWORK_LABELS as Record<string, string>)[p] ?? p;

export function StatusChip({ status }: { status: string }) {
  const tone = status === 'published' || status === 'active' ? 'ok' : ['failed', 'missed', 'needs_reauth', 'needs_review'].includes(status) ? 'bad' : status === 'partially_published' ? 'warn' : '';
  return <span className={`chip ${tone}`} data-status={status}>{status.replace(/_/g, ' ')}</span>;
}

export const when = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleString() : '');
