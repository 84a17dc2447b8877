/**
 * Where a chart's numbered event markers go. Each marker is a dashed line at its day and a numbered
 * badge in a lane above the plot; the list under the chart says what each number is. Badges never
 * overlap and never leave the plot's width: neighbours are pushed apart, the row is pulled back
 * from the edges, and when one row cannot hold them all they alternate over several.
 */

export interface MarkerInput {
  day: string;
  label: string;
}

export interface NumberedMarker extends MarkerInput {
  n: number;
}

/** Markers in day order (stable for one day), numbered from 1: numbers read left to right. */
export function numberMarkers(markers: readonly MarkerInput[]): NumberedMarker[] {
  return markers
    .map((m, i) => ({ m, i }))
    .sort((a, b) => (a.m.day < b.m.day ? -1 : a.m.day > b.m.day ? 1 : a.i - b.i))
    .map(({ m }, k) => ({ ...m, n: k + 1 }));
}

/** How many badge rows `count` badges of `size` (with `gap` between) need across `width`. */
export function badgeRows(count: number, width: number, size: number, gap: number): number {
  if (count === 0) return 0;
  const perRow = Math.max(1, Math.floor((width + gap) / (size + gap)));
  return Math.ceil(count / perRow);
}

export interface PlacedBadge {
  /** Centre of the badge along the plot. */
  cx: number;
  row: number;
}

/**
 * Badge centres for markers at `xs` (ascending), inside [left, right], `rows` rows: marker i goes
 * to row i mod rows, so neighbours share no row when there are several.
 */
export function placeBadges(
  xs: readonly number[],
  left: number,
  right: number,
  size: number,
  gap: number,
  rows: number,
): PlacedBadge[] {
  const placed: PlacedBadge[] = xs.map(() => ({ cx: 0, row: 0 }));
  const half = size / 2;
  const step = size + gap;
  const lo = left + half;
  const hi = Math.max(lo, right - half);
  for (let row = 0; row < Math.max(1, rows); row++) {
    const members = xs.map((_, i) => i).filter((i) => i % Math.max(1, rows) === row);
    const cs = members.map((i) => Math.min(Math.max(xs[i]!, lo), hi));
    for (let k = 1; k < cs.length; k++) cs[k] = Math.max(cs[k]!, cs[k - 1]! + step);
    if (cs.length > 0) cs[cs.length - 1] = Math.min(cs[cs.length - 1]!, hi);
    for (let k = cs.length - 2; k >= 0; k--) cs[k] = Math.min(cs[k]!, cs[k + 1]! - step);
    // More badges than the row holds (only if `rows` was too few): spread them evenly instead.
    if (cs.length > 0 && cs[0]! < lo) {
      const span = cs.length > 1 ? (hi - lo) / (cs.length - 1) : 0;
      cs.forEach((_, k) => {
        cs[k] = lo + span * k;
      });
    }
    members.forEach((i, k) => {
      placed[i] = { cx: cs[k]!, row };
    });
  }
  return placed;
}
