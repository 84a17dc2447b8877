import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { dayToEpochSeconds } from './format.js';

export interface SeriesChartProps {
  /** Calendar days, ascending. */
  days: string[];
  values: (number | null)[];
  label: string;
  /** Optional band around a baseline, one entry per day (null where there is none). */
  baseline?: (number | null)[];
  lower?: (number | null)[];
  upper?: (number | null)[];
  /** Days to mark as points (e.g. the fired anomaly). */
  highlight?: string[];
  /** Vertical markers with a label (e.g. context events). */
  markers?: { day: string; label: string }[];
  height?: number;
  /** Text alternative for screen readers (the chart canvas itself says nothing). */
  summary: string;
}

const cssVar = (name: string, fallback: string) =>
  getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback;

/** A daily series with an optional baseline band, highlighted points and event markers (uPlot). */
export function SeriesChart(props: SeriesChartProps) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = host.current;
    if (!el) return;
    const xs = props.days.map(dayToEpochSeconds);
    const highlight = new Set(props.highlight ?? []);
    const fired = props.days.map((d, i) => (highlight.has(d) ? (props.values[i] ?? null) : null));
    const text = cssVar('--color-text-secondary', '#555');
    const grid = cssVar('--color-border-secondary', '#ddd');
    const line = cssVar('--color-text-info', '#1b66d2');
    const danger = cssVar('--color-text-danger', '#b00');
    const axis = { stroke: text, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid } };
    const hasBand = Boolean(props.lower && props.upper);
    const series: uPlot.Series[] = [
      {},
      { label: props.label, stroke: line, width: 2 },
      { label: 'fired', stroke: danger, width: 0, points: { show: true, size: 9, fill: danger, stroke: danger } },
    ];
    const data: uPlot.AlignedData = [xs, props.values, fired];
    if (props.baseline) {
      series.push({ label: 'baseline', stroke: text, width: 1, dash: [4, 4], points: { show: false } });
      data.push(props.baseline);
    }
    if (hasBand) {
      // The band's edges are drawn by the fill between them only: no line, no points.
      const edge = { stroke: 'transparent', points: { show: false } };
      series.push({ label: 'band low', ...edge }, { label: 'band high', ...edge });
      data.push(props.lower!, props.upper!);
    }
    const markers = props.markers ?? [];
    const opts: uPlot.Options = {
      width: Math.max(240, el.clientWidth),
      height: props.height ?? 200,
      legend: { show: false },
      cursor: { drag: { x: false, y: false } },
      scales: { x: { time: true } },
      // The value axis is as wide as its longest label (uPlot's fixed 50 px cut "300,000" to "0,000").
      axes: [axis, { ...axis, size: (_u, values) => 16 + 7 * Math.max(4, ...(values ?? []).map((v) => v.length)) }],
      series,
      bands: hasBand ? [{ series: [data.length - 1, data.length - 2], fill: `${line}22` }] : [],
      hooks: {
        draw: [
          (u) => {
            const ctx = u.ctx;
            ctx.save();
            ctx.strokeStyle = cssVar('--color-text-warning', '#a60');
            ctx.fillStyle = ctx.strokeStyle;
            ctx.setLineDash([2, 3]);
            ctx.font = `${11 * devicePixelRatio}px sans-serif`;
            markers.forEach((m, i) => {
              const x = u.valToPos(dayToEpochSeconds(m.day), 'x', true);
              if (!Number.isFinite(x)) return;
              ctx.beginPath();
              ctx.moveTo(x, u.bbox.top);
              ctx.lineTo(x, u.bbox.top + u.bbox.height);
              ctx.stroke();
              // Labels of nearby markers go on rows of their own; near the right edge they end at the line.
              const label = m.label.length > 24 ? `${m.label.slice(0, 23)}…` : m.label;
              const width = ctx.measureText(label).width;
              const right = x + 3 + width > u.bbox.left + u.bbox.width;
              ctx.fillText(label, right ? x - 3 - width : x + 3, u.bbox.top + (12 + 13 * i) * devicePixelRatio);
            });
            ctx.restore();
          },
        ],
      },
    };
    const plot = new uPlot(opts, data, el);
    // Width follows the container; the height is fixed, so resizing never feeds back into itself.
    const observer = new ResizeObserver(() => {
      const width = Math.max(240, el.clientWidth);
      if (width !== plot.width) plot.setSize({ width, height: plot.height });
    });
    observer.observe(el);
    return () => {
      observer.disconnect();
      plot.destroy();
    };
  }, [props]);
  return (
    <figure class="chart" style={{ margin: 0 }}>
      <div ref={host} role="img" aria-label={props.summary} />
      <figcaption class="visually-hidden">{props.summary}</figcaption>
    </figure>
  );
}

/** A small inline trend line (SVG, no library) for cards. */
export function Sparkline(props: { values: (number | null)[]; label: string; width?: number; height?: number }) {
  const w = props.width ?? 120;
  const h = props.height ?? 28;
  const vals = props.values.filter((v): v is number => v !== null && Number.isFinite(v));
  if (vals.length < 2) return <span class="muted small">no trend</span>;
  const min = Math.min(...vals);
  const max = Math.max(...vals);
  const span = max - min || 1;
  const step = w / (props.values.length - 1);
  const points = props.values
    .map((v, i) =>
      v === null ? null : `${(i * step).toFixed(1)},${(h - 2 - ((v - min) / span) * (h - 4)).toFixed(1)}`,
    )
    .filter(Boolean)
    .join(' ');
  return (
    <svg width={w} height={h} viewBox={`0 0 ${w} ${h}`} role="img" aria-label={props.label}>
      <polyline fill="none" stroke="var(--color-text-info)" stroke-width="1.5" points={points} />
    </svg>
  );
}
