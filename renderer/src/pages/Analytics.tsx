/**
 * Analytics: how published posts did, from the counts Herald reads from each network (GET
 * /analytics/posts, one request): totals, the top posts with a small chart per metric over time,
 * per network and week totals, and the best days and hours from the user's own history, all in
 * the user's zone. Filters: network, account, time.
 */
import { useMemo, useState } from 'react';
import { client } from '../api';
import { Empty, ErrorText, Loading, Notice, Page, accountLabel, networkName } from '../components/ui';
import { useTimes } from '../components/time';
import { useAction, useLoad } from '../hooks';
import { NETWORK_LABELS } from '../../../text/counting';
import { bestTimes, topPosts, weeklyTotals, METRICS } from './analytics/model';
import { BestTimes, TopPosts, WeekTable, totalEngagement, type AnalyticsPost } from './analytics/parts';
import './analytics/analytics.css';

const RANGES: [string, string][] = [
  ['30', 'Last 30 days'],
  ['7', 'Last 7 days'],
  ['90', 'Last 90 days'],
  ['365', 'Last year'],
  ['', 'All time'],
];
const DAY = 86_400_000;

export function Analytics() {
  const [network, setNetwork] = useState('');
  const [account, setAccount] = useState('');
  const [range, setRange] = useState('30');
  const times = useTimes();
  const zone = times.userZone;
  // The range starts at a whole hour, so the request stays the same while the page is open.
  const from = range
    ? new Date(Math.floor((Date.now() - Number(range) * DAY) / 3_600_000) * 3_600_000).toISOString()
    : undefined;
  const list = useLoad(
    () =>
      client.analyticsPosts({
        limit: 10_000,
        platform: (network || undefined) as never,
        accountId: account || undefined,
        from,
      }),
    [network, account, from],
  );
  const accounts = useLoad(() => client.listAccounts(), []);
  const { busy, error: actionError, run } = useAction();
  const [refreshed, setRefreshed] = useState<string | undefined>();
  const posts = (list.data?.posts ?? []) as AnalyticsPost[];
  const sums = useMemo(() => {
    if (!zone) return undefined;
    const live = posts.filter((p) => !p.deletedAt);
    return { weeks: weeklyTotals(live, zone), heat: bestTimes(live, zone), top: topPosts(posts, 10) };
  }, [posts, zone]);
  const total = (m: (typeof METRICS)[number]) => posts.reduce((n, p) => n + (p.metrics[m] ?? 0), 0);

  const exportCsv = async () => {
    const csv = await client.analyticsCsv({
      platform: (network || undefined) as never,
      accountId: account || undefined,
      from,
    });
    const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = 'herald-metrics.csv';
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };

  return (
    <Page
      title="Analytics"
      actions={
        <div className="row">
          <button
            type="button"
            disabled={busy}
            onClick={() => void run(() => client.refreshAnalytics()).then((r) => r && setRefreshed(r.message))}
          >
            Read counts now
          </button>
          <button type="button" onClick={() => void exportCsv()}>
            Export CSV
          </button>
        </div>
      }
    >
      <div className="panel row analytics-filters">
        <label>
          Network{' '}
          <select value={network} onChange={(e) => setNetwork(e.target.value)} data-filter="network">
            <option value="">Every network</option>
            {Object.entries(NETWORK_LABELS).map(([k, v]) => (
              <option key={k} value={k}>
                {v}
              </option>
            ))}
          </select>
        </label>
        <label>
          Account{' '}
          <select value={account} onChange={(e) => setAccount(e.target.value)} data-filter="account">
            <option value="">Every account</option>
            {(accounts.data?.accounts ?? [])
              .filter((a) => !network || a.platform === network)
              .map((a) => (
                <option key={a.uuid} value={a.uuid}>
                  {networkName(a.platform)} {accountLabel(a)}
                </option>
              ))}
          </select>
        </label>
        <label>
          Time{' '}
          <select value={range} onChange={(e) => setRange(e.target.value)} data-filter="time">
            {RANGES.map(([v, l]) => (
              <option key={v} value={v}>
                {l}
              </option>
            ))}
          </select>
        </label>
      </div>
      {refreshed && <Notice>{refreshed}</Notice>}
      <ErrorText error={list.error ?? actionError} />
      {(list.loading && !list.data) || !sums ? (
        <Loading what="Loading the numbers" />
      ) : posts.length === 0 ? (
        <Empty>No published posts in this range yet. Counts are read about an hour after a post goes out.</Empty>
      ) : (
        <>
          <div className="panel analytics-totals" data-totals>
            <div>
              <strong>{posts.length}</strong>
              <span className="muted small">posts</span>
            </div>
            <div>
              <strong>{totalEngagement(posts)}</strong>
              <span className="muted small">engagements</span>
            </div>
            {METRICS.map((m) => (
              <div key={m} data-total={m}>
                <strong>{total(m)}</strong>
                <span className="muted small">{m === 'impressions' ? 'views' : m}</span>
              </div>
            ))}
          </div>
          <div className="analytics-grid">
            <section className="panel">
              <h2>Top posts</h2>
              <TopPosts posts={sums.top} />
            </section>
            <section className="panel">
              <h2>Best days and hours</h2>
              <p className="small muted">Average engagement of your posts by when they went out ({zone}).</p>
              <BestTimes map={sums.heat} />
            </section>
          </div>
          <section className="panel">
            <h2>Per network and week</h2>
            <WeekTable rows={sums.weeks} />
          </section>
        </>
      )}
    </Page>
  );
}
