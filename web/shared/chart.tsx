import { useEffect, useMemo, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import './chart.css';
import { badgeRows, numberMarkers, placeBadges } from './chart-markers.js';
import { dayToEpochSeconds } from './format.js';
import { bandedRange } from './series.js';

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
  /** Days to mark, each named in the numbered list under the chart (e.g. context events). */
  markers?: { day: string; label: string }[];
  height?: number;
  /** Text alternative for screen readers (the chart canvas itself says nothing). */
  summary: string;
}

/** Badge lane geometry, in CSS pixels. */
const BADGE = 16;
const BADGE_GAP = 3;
/** Space between the badge lane and the plot, and above the lane. */
const LANE_BELOW = 6;
const LANE_ABOVE = 4;
/** What uPlot's left axis and padding take from the chart's width, for sizing the lane beforehand. */
const AXIS_ALLOWANCE = 70;

/**
 * A CSS colour as canvas can draw it. Host style variables may hold `light-dark()` or `color-mix()`
 * (the MCP Apps reference host's do), which a canvas does not parse: read it back from an element
 * that uses it, where the browser has resolved it for the current colour scheme.
 */
function resolveColor(
  probeParent: HTMLElement,
  css: string,
  fallback: string,
): { css: string; alpha(a: number): string } {
  const probe = document.createElement('span');
  probe.style.color = css;
  probe.style.display = 'none';
  probeParent.append(probe);
  const computed = getComputedStyle(probe).color;
  probe.remove();
  const rgb = parseColor(computed) ?? parseColor(fallback) ?? [0, 0, 0];
  return {
    css: `rgb(${rgb.join(', ')})`,
    alpha: (a) => `rgba(${rgb.join(', ')}, ${a})`,
  };
}

function parseColor(text: string): [number, number, number] | undefined {
  const rgb = /^rgba?\(\s*([\d.]+)[\s,]+([\d.]+)[\s,]+([\d.]+)/.exec(text);
  if (rgb) return [Number(rgb[1]), Number(rgb[2]), Number(rgb[3])];
  const srgb = /^color\(srgb\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)/.exec(text);
  if (srgb) return [0, 1, 2].map((i) => Math.round(Number(srgb[i + 1]) * 255)) as [number, number, number];
  const hex = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(text);
  if (hex) return [1, 2, 3].map((i) => Number.parseInt(hex[i]!, 16)) as [number, number, number];
  return undefined;
}

const dayLabel = (day: string) =>
  new Intl.DateTimeFormat(document.documentElement.lang || undefined, {
    month: 'short',
    day: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(`${day}T00:00:00Z`));

/**
 * A chart with a band is taller by default: next to a spike the band of a quiet day is a small
 * fraction of the value axis, and every pixel of plot is a pixel more of it.
 */
const BANDED_HEIGHT = 240;

/**
 * A daily series with an optional baseline band, highlighted points and event markers (uPlot).
 * Markers are numbered badges above the plot, never overlapping and never cut at an edge, with a
 * list under the chart naming each one (a label on the plot itself collided at any width).
 */
export function SeriesChart(props: SeriesChartProps) {
  const host = useRef<HTMLDivElement>(null);
  const markers = useMemo(() => numberMarkers(props.markers ?? []), [props.markers]);
  useEffect(() => {
    const el = host.current;
    if (!el) return;
    const xs = props.days.map(dayToEpochSeconds);
    const highlight = new Set(props.highlight ?? []);
    const fired = props.days.map((d, i) => (highlight.has(d) ? (props.values[i] ?? null) : null));
    const text = resolveColor(el, 'var(--color-text-secondary)', '#555555');
    const grid = resolveColor(el, 'var(--color-border-secondary)', '#dddddd');
    const line = resolveColor(el, 'var(--color-text-info)', '#1b66d2');
    const danger = resolveColor(el, 'var(--color-text-danger)', '#bb0000');
    const marker = resolveColor(el, 'var(--ch-text-warning, var(--color-text-warning))', '#aa6600');
    const paper = resolveColor(el, 'var(--color-background-primary)', '#ffffff');
    const axis = { stroke: text.css, grid: { stroke: grid.css, width: 1 }, ticks: { stroke: grid.css } };
    const hasBand = Boolean(props.lower && props.upper);
    const series: uPlot.Series[] = [
      {},
      { label: props.label, stroke: line.css, width: 2 },
      {
        label: 'fired',
        stroke: danger.css,
        width: 0,
        points: { show: true, size: 9, fill: danger.css, stroke: danger.css },
      },
    ];
    const data: uPlot.AlignedData = [xs, props.values, fired];
    if (props.baseline) {
      series.push({ label: 'baseline', stroke: text.css, width: 1, dash: [4, 4], points: { show: false } });
      data.push(props.baseline);
    }
    if (hasBand) {
      // Faint edges over the fill: a band narrow next to a spike still shows where it ends.
      const edge = { stroke: line.alpha(0.4), width: 1, points: { show: false } };
      series.push({ label: 'band low', ...edge }, { label: 'band high', ...edge });
      data.push(props.lower!, props.upper!);
    }
    const yRange = hasBand ? bandedRange(props.values, props.baseline, props.lower!, props.upper!) : null;
    const widthNow = () => Math.max(240, el.clientWidth);
    const rowsFor = (width: number) => badgeRows(markers.length, width - AXIS_ALLOWANCE, BADGE, BADGE_GAP);
    const drawMarkers = (u: uPlot, rows: number) => {
      const dpr = devicePixelRatio;
      const { left, top, width, height } = u.bbox;
      const xsAt = markers.map((m) => u.valToPos(dayToEpochSeconds(m.day), 'x', true));
      const placed = placeBadges(xsAt, left, left + width, BADGE * dpr, BADGE_GAP * dpr, rows);
      const laneTop = top - (LANE_BELOW + rows * (BADGE + BADGE_GAP) - BADGE_GAP) * dpr;
      // Where the badges went, in CSS pixels of the canvas: what a test checks for overlaps and edges.
      el.dataset.plot = JSON.stringify([left / dpr, (left + width) / dpr]);
      el.dataset.badges = JSON.stringify(
        placed.map((b, i) => ({
          n: markers[i]!.n,
          left: b.cx / dpr - BADGE / 2,
          right: b.cx / dpr + BADGE / 2,
          row: b.row,
        })),
      );
      if (hasBand) {
        // Where the band is drawn each day, in CSS pixels of the canvas, clipped to the plot as
        // the fill is: what a test checks (the band of every day with a baseline shows).
        const clip = (y: number) => Math.min(Math.max(y, top), top + height) / dpr;
        const at = (v: number | null | undefined) => (v === null || v === undefined ? null : u.valToPos(v, 'y', true));
        el.dataset.band = JSON.stringify(
          props.days.map((day, i) => {
            const hi = at(props.upper![i]);
            const lo = at(props.lower![i]);
            const value = at(props.values[i]);
            return {
              day,
              top: hi === null ? null : clip(hi),
              bottom: lo === null ? null : clip(lo),
              value: value === null ? null : value / dpr,
            };
          }),
        );
      }
      const ctx = u.ctx;
      ctx.save();
      ctx.strokeStyle = marker.css;
      ctx.lineWidth = dpr;
      markers.forEach((_, i) => {
        const x = xsAt[i]!;
        if (!Number.isFinite(x) || x < left || x > left + width) return;
        const { cx, row } = placed[i]!;
        const badgeBottom = laneTop + (row * (BADGE + BADGE_GAP) + BADGE) * dpr;
        ctx.setLineDash([]);
        ctx.beginPath();
        ctx.moveTo(cx, badgeBottom);
        ctx.lineTo(x, top);
        ctx.stroke();
        ctx.setLineDash([2 * dpr, 3 * dpr]);
        ctx.beginPath();
        ctx.moveTo(x, top);
        ctx.lineTo(x, top + height);
        ctx.stroke();
      });
      ctx.setLineDash([]);
      ctx.font = `600 ${10 * dpr}px sans-serif`;
      ctx.textAlign = 'center';
      ctx.textBaseline = 'middle';
      markers.forEach((m, i) => {
        const { cx, row } = placed[i]!;
        const cy = laneTop + (row * (BADGE + BADGE_GAP) + BADGE / 2) * dpr;
        ctx.fillStyle = marker.css;
        ctx.beginPath();
        ctx.arc(cx, cy, (BADGE / 2) * dpr, 0, 2 * Math.PI);
        ctx.fill();
        ctx.fillStyle = paper.css;
        ctx.fillText(String(m.n), cx, cy + 0.5 * dpr);
      });
      ctx.restore();
    };
    const build = (width: number) => {
      const rows = rowsFor(width);
      const opts: uPlot.Options = {
        width,
        height:
          (props.height ?? (hasBand ? BANDED_HEIGHT : 200)) +
          (rows > 0 ? LANE_ABOVE + LANE_BELOW + rows * (BADGE + BADGE_GAP) : 0),
        // The badge lane sits in the top padding, above the data.
        padding: [rows > 0 ? LANE_ABOVE + LANE_BELOW + rows * (BADGE + BADGE_GAP) : null, null, null, null],
        legend: { show: false },
        cursor: { drag: { x: false, y: false } },
        scales: {
          x: { time: true },
          ...(yRange ? { y: { range: () => uPlot.rangeNum(yRange[0], yRange[1], 0.1, true) } } : {}),
        },
        // The value axis is as wide as its longest label (uPlot's fixed 50 px cut "300,000" to "0,000").
        axes: [axis, { ...axis, size: (_u, values) => 16 + 7 * Math.max(4, ...(values ?? []).map((v) => v.length)) }],
        series,
        bands: hasBand ? [{ series: [data.length - 1, data.length - 2], fill: line.alpha(0.13) }] : [],
        hooks: { draw: [(u) => drawMarkers(u, rows)] },
      };
      return { plot: new uPlot(opts, data, el), rows };
    };
    let chart = build(widthNow());
    // Width follows the container; the height only changes when the badges need another row.
    const observer = new ResizeObserver(() => {
      const width = widthNow();
      if (width === chart.plot.width) return;
      if (rowsFor(width) !== chart.rows) {
        chart.plot.destroy();
        chart = build(width);
      } else chart.plot.setSize({ width, height: chart.plot.height });
    });
    observer.observe(el);
    return () => {
      observer.disconnect();
      chart.plot.destroy();
    };
  }, [props, markers]);
  return (
    <figure class="chart" style={{ margin: 0 }}>
      <div ref={host} role="img" aria-label={props.summary} />
      {markers.length > 0 && (
        <ol class="chart-markers small" aria-label="Events marked on the chart">
          {markers.map((m) => (
            <li key={`${m.n}`}>
              <span class="chart-marker-n" aria-hidden="true">
                {m.n}
              </span>
              <span class="visually-hidden">Marker {m.n}: </span>
              <span class="chart-marker-day">{dayLabel(m.day)}</span> {m.label}
            </li>
          ))}
        </ol>
      )}
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
