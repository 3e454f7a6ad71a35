/**
 * A small line chart of one metric of one post over time (uPlot: small, canvas, well kept). Its
 * colours come from the page's own CSS variables, so it follows light and dark; the time axis is
 * left out (the reads are listed beside it with <Time>), so no date is formatted here. The library
 * loads with the first chart opened, not with the app.
 */
import { useEffect, useRef } from 'react';
import type uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export function MetricChart({ label, points }: { label: string; points: { at: number; value: number | null }[] }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    let plot: uPlot | undefined;
    let gone = false;
    void import('uplot').then(({ default: UPlot }) => {
      if (gone) return;
      const css = getComputedStyle(el);
      const line = css.getPropertyValue('--accent').trim() || '#4f46e5';
      const grid = css.getPropertyValue('--border').trim() || '#e3e6ea';
      const text = css.getPropertyValue('--muted').trim() || '#667085';
      const width = Math.max(140, el.clientWidth);
      const data: uPlot.AlignedData = [points.map((p) => p.at / 1000), points.map((p) => p.value)];
      plot = new UPlot(
        {
          width,
          height: 90,
          legend: { show: false },
          cursor: { show: false },
          scales: { x: { time: false } },
          axes: [
            { show: false },
            {
              stroke: text,
              size: 36,
              grid: { stroke: grid, width: 1 },
              ticks: { show: false },
              font: '11px sans-serif',
            },
          ],
          series: [{}, { label, stroke: line, width: 2, points: { show: points.length < 12, fill: line } }],
        },
        data,
        el,
      );
    });
    return () => {
      gone = true;
      plot?.destroy();
    };
  }, [label, points]);
  return (
    <figure className="metric-chart" data-metric={label}>
      <figcaption className="small muted">{label}</figcaption>
      <div ref={box} />
    </figure>
  );
}
