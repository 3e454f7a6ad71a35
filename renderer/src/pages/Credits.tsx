import { useState } from 'react';
import { client } from '../api';
import { Empty, ErrorText, Loading, networkName, Page } from '../components/ui';
import { Time } from '../components/time';
import { useLoad } from '../hooks';
import { AdjustCredits } from './credits/AdjustCredits';
import { CreditMeter } from './credits/CreditMeter';

const grouped = new Intl.NumberFormat();
/** A ledger amount as the meter writes numbers, with its sign: +10,000, -10. */
const signed = (v: number) => `${v > 0 ? '+' : ''}${grouped.format(v)}`;

/** Who a ledger row came from: a network, the owner, or a change of the monthly grant. */
const sourceName = (source: string) =>
  source === 'owner' ? 'you' : source === 'grant_change' ? 'monthly grant' : networkName(source);

/** The meter explained, adding or removing credits, a chart of spending per day (last 30 days), and the usage table. */
export function Credits() {
  const [page, setPage] = useState(1);
  const balance = useLoad(() => client.credits());
  const usage = useLoad(() => client.creditsUsage({ page, limit: 20 }), [page]);
  const spend = useLoad(async () => {
    const since = new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10);
    const r = await client.creditsUsage({ limit: 100, start_date: since });
    const days = new Map<string, number>();
    // Net spending: what publishing cost, less what failed targets got back.
    for (const x of r.records) {
      if (x.trans_type !== 'publish' && x.trans_type !== 'refund') continue;
      const day = x.created_at.slice(0, 10);
      days.set(day, (days.get(day) ?? 0) - x.credits);
    }
    return [...days].filter(([, v]) => v > 0).sort((a, b) => a[0].localeCompare(b[0]));
  });
  const max = Math.max(1, ...(spend.data ?? []).map(([, v]) => v));
  return (
    <Page title="Credits">
      <ErrorText error={balance.error ?? usage.error} />
      <CreditMeter credits={balance.data} />
      <AdjustCredits
        balance={balance.data?.balance}
        onDone={() => {
          void balance.reload();
          void usage.reload();
        }}
      />
      <div className="panel">
        <h2>Spending, last 30 days</h2>
        {spend.loading && !spend.data && <Loading />}
        {spend.data?.length === 0 && <Empty>Nothing spent yet.</Empty>}
        {spend.data?.map(([day, v]) => (
          <div className="row nowrap spend-row" key={day} data-spend={day}>
            <span className="small muted" style={{ width: 90, flex: 'none' }}>
              {day}
            </span>
            <div className="bar" style={{ width: `${(v / max) * 70}%` }} />
            <span className="small">{v}</span>
          </div>
        ))}
      </div>
      <div className="panel">
        {usage.loading && !usage.data && <Loading what="Loading usage" />}
        {usage.data?.records.length === 0 && <Empty>No credit movements yet.</Empty>}
        {!!usage.data?.records.length && (
          <table>
            <thead>
              <tr>
                <th>Date</th>
                <th>Type</th>
                <th>Credits</th>
                <th>Source</th>
                <th>Detail</th>
              </tr>
            </thead>
            <tbody>
              {usage.data?.records.map((r) => (
                <tr key={r.id}>
                  <td data-label="Date" className="small">
                    <Time at={r.created_at} />
                  </td>
                  <td data-label="Type">{r.trans_type}</td>
                  <td data-label="Credits" className={r.credits < 0 ? 'error' : 'ok'}>
                    {signed(r.credits)}
                  </td>
                  <td data-label="Source">
                    {r.source_type ? r.source_type.split(',').map(sourceName).join(', ') : ''}
                  </td>
                  <td data-label="Detail" className="small wrap">
                    {r.source_detail}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <div className="row" style={{ marginTop: 8 }}>
          <button type="button" disabled={page <= 1} onClick={() => setPage(page - 1)}>
            Newer
          </button>
          <span className="muted small">
            Page {page} of {Math.max(1, Math.ceil((usage.data?.pagination.total ?? 0) / 20))}
          </span>
          <button type="button" disabled={!usage.data?.pagination.hasMore} onClick={() => setPage(page + 1)}>
            Older
          </button>
        </div>
      </div>
    </Page>
  );
}
