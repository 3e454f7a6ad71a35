/**
 * LinkedIn refused the sign-in because the app may not ask for post analytics: the offer to
 * connect without them (the app's analytics scope off, then the same flow again).
 */
export function WithoutAnalyticsOffer({ busy, onConnect }: { busy: boolean; onConnect: () => void }) {
  return (
    <div className="banner" role="region" aria-label="Connect LinkedIn without analytics" data-without-analytics>
      <p>
        Herald can still publish to LinkedIn without that permission; the Analytics page then shows no numbers for
        LinkedIn posts. You can turn analytics back on later on the Networks page.
      </p>
      <button type="button" className="primary" disabled={busy} onClick={onConnect}>
        Connect LinkedIn without analytics
      </button>
    </div>
  );
}

/** The connect-status answer's sign that the analytics scope was refused. */
export const analyticsScopeRefused = (error?: { details?: { path: string }[] }) =>
  !!error?.details?.some((d) => d.path === 'analyticsScope');

/** The account's analytics, when Herald cannot read them: one line under its health. */
export function AnalyticsNote({ analytics }: { analytics?: { available: boolean; reason?: string } }) {
  if (!analytics || analytics.available) return null;
  return (
    <div className="muted small" data-analytics-unavailable title={analytics.reason}>
      No analytics: {analytics.reason}
    </div>
  );
}
