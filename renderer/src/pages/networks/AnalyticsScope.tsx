/**
 * LinkedIn's analytics scope on the Networks page: on, sign-in asks for r_member_postAnalytics,
 * which LinkedIn grants only to apps with the Community Management API product (else it refuses
 * the whole sign-in); off, LinkedIn connects without post analytics. Applies at the next sign-in.
 */
import { client } from '../../api';
import { ErrorText } from '../../components/ui';
import { useAction } from '../../hooks';

type NetworkApp = Awaited<ReturnType<typeof client.setNetwork>>['network'];

export function AnalyticsScopeSwitch({ app, onChange }: { app: NetworkApp; onChange(n: NetworkApp): void }) {
  const { busy, error, run } = useAction();
  if (app.analyticsScope === undefined) return null;
  return (
    <div data-analytics-scope>
      <label className="choice small">
        <input
          type="checkbox"
          checked={app.analyticsScope}
          disabled={busy}
          onChange={(e) => {
            const on = e.target.checked;
            void run(async () => onChange((await client.setNetwork('problog', { analyticsScope: on })).network));
          }}
        />
        <span>
          Ask LinkedIn for post analytics (<code>r_member_postAnalytics</code>). LinkedIn grants it only to apps with
          the Community Management API product and refuses the sign-in otherwise; reconnect the account after a change.
        </span>
      </label>
      <ErrorText error={error} />
    </div>
  );
}
