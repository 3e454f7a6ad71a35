/**
 * The Analytics page's panels: the top posts (each opens its charts), per network and week totals
 * and the best days and hours heatmap. Times through <Time> and useTimes (the user's zone).
 */
import { useState } from 'react';
import { client, openExternal } from '../../api';
import { networkName } from '../../components/ui';
import { Time, useTimes } from '../../components/time';
import { useLoad } from '../../hooks';
import { MetricChart } from './MetricChart';
import { HEAT_STEPS, METRICS, engagement, postTitle, type Counts, type Heatmap, type WeekRow } from './model';

const LABEL = {
  likes: 'Likes',
  reposts: 'Reposts',
  replies: 'Replies',
  quotes: 'Quotes',
  impressions: 'Views',
} as const;
const DAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
const num = (v: number | null) => (v === null ? '–' : String(v));

export interface AnalyticsPost {
  publicationId: string;
  platform: string;
  username: string | null;
  draftTitle: string | null;
  excerpt?: string | null;
  url: string | null;
  publishedAt: string;
  deletedAt: string | null;
  tracking: string;
  reason: string | null;
  metrics: Counts;
  fetchedAt: string | null;
}

function Charts({ id }: { id: string }) {
  const one = useLoad(() => client.analyticsPost(id), [id]);
  if (!one.data) return <p className="muted small">{one.error ?? 'Loading the reads…'}</p>;
  const h = one.data.history;
  if (!h.length) return <p className="muted small">No reads yet: the first comes about an hour after publishing.</p>;
  return (
    <div className="metric-charts" data-charts={id}>
      {METRICS.filter((m) => h.some((r) => r.metrics[m] !== null)).map((m) => (
        <MetricChart key={m} label={LABEL[m]} points={h.map((r) => ({ at: Date.parse(r.at), value: r.metrics[m] }))} />
      ))}
      <p className="small muted">
        {h.length} read(s), from <Time at={h[0]!.at} /> to <Time at={h[h.length - 1]!.at} />
      </p>
    </div>
  );
}

export function TopPosts({ posts }: { posts: AnalyticsPost[] }) {
  const [open, setOpen] = useState<string | null>(null);
  return (
    <ol className="top-posts">
      {posts.map((p) => (
        <li key={p.publicationId} data-top={p.publicationId}>
          <div className="row">
            <strong className="grow wrap" data-title>
              {postTitle(p)}
            </strong>
            <span className="chip">{networkName(p.platform)}</span>
            {p.deletedAt && <span className="chip bad">deleted</span>}
          </div>
          <div className="row small muted">
            <Time at={p.publishedAt} />
            {METRICS.map((m) => (
              <span key={m} data-count={m}>
                {LABEL[m]} {num(p.metrics[m])}
              </span>
            ))}
          </div>
          {p.tracking === 'unavailable' && p.reason && <p className="small warn">{p.reason}</p>}
          <div className="row">
            <button type="button" onClick={() => setOpen(open === p.publicationId ? null : p.publicationId)}>
              {open === p.publicationId ? 'Hide charts' : 'Charts'}
            </button>
            {p.url && (
              <a
                href={p.url}
                className="small"
                onClick={(e) => {
                  e.preventDefault();
                  openExternal(p.url!);
                }}
              >
                Open on {networkName(p.platform)} ↗
              </a>
            )}
          </div>
          {open === p.publicationId && <Charts id={p.publicationId} />}
        </li>
      ))}
    </ol>
  );
}

export function WeekTable({ rows }: { rows: WeekRow[] }) {
  const times = useTimes();
  return (
    <div className="scroll-x">
      <table className="week-totals">
        <thead>
          <tr>
            <th>Week of</th>
            <th>Network</th>
            <th>Posts</th>
            {METRICS.map((m) => (
              <th key={m}>{LABEL[m]}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={`${r.week} ${r.platform}`} data-week={r.week} data-platform={r.platform}>
              <td>{times.date(r.week, { month: 'short', day: 'numeric', year: 'numeric' })}</td>
              <td>{networkName(r.platform)}</td>
              <td>{r.posts}</td>
              {METRICS.map((m) => (
                <td key={m}>{num(r.totals[m])}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** What the heatmap's shades mean: from no engagement to the busiest hour's average. */
function HeatLegend({ max }: { max: number }) {
  const fmt = (v: number) => (v >= 10 || Number.isInteger(v) ? String(Math.round(v)) : v.toFixed(1));
  return (
    <div className="heat-legend small muted" data-heat-legend>
      <span>Average engagement per post (likes, reposts, replies, quotes):</span>
      <span className="heat-scale">
        <span>{fmt(0)}</span>
        {HEAT_STEPS.map((pct) => (
          <span
            key={pct}
            className="heat-swatch"
            aria-hidden
            title={fmt((max * pct) / 100)}
            style={{ ['--heat' as string]: `${pct}%` }}
          />
        ))}
        <span data-heat-max>{fmt(max)}</span>
      </span>
      <span className="heat-scale">
        <span className="heat-swatch heat-none" aria-hidden /> no post at that hour
      </span>
    </div>
  );
}

export function BestTimes({ map }: { map: Heatmap }) {
  return (
    <>
      <BestTimesGrid map={map} />
      <HeatLegend max={map.max} />
    </>
  );
}

function BestTimesGrid({ map }: { map: Heatmap }) {
  return (
    <div className="heatmap" role="table" aria-label="Average engagement by weekday and hour">
      <div className="heat-row heat-hours" role="row">
        <span />
        {Array.from({ length: 24 }, (_, h) => (
          <span key={h} className="small muted">
            {h % 3 === 0 ? h : ''}
          </span>
        ))}
      </div>
      {map.cells.map((row, d) => (
        <div key={d} className="heat-row" role="row">
          <span className="small muted">{DAYS[d]}</span>
          {row.map((c, h) => (
            <span
              key={h}
              className="heat-cell"
              data-day={d}
              data-hour={h}
              data-posts={c.posts}
              title={c.posts ? `${DAYS[d]} ${h}:00 – ${c.posts} post(s), ${c.avg.toFixed(1)} average engagement` : ''}
              style={{ ['--heat' as string]: map.max ? String(Math.round((c.avg / map.max) * 100)) + '%' : '0%' }}
            />
          ))}
        </div>
      ))}
    </div>
  );
}

export const totalEngagement = (posts: AnalyticsPost[]) => posts.reduce((n, p) => n + engagement(p.metrics), 0);
