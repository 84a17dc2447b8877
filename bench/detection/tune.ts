// npx tsx bench/detection/tune.ts ['{"threshold": 4, ...}'] [--sets=nab,synthetic,demo] [--per-file] [--days]
//
// The tuning loop of the detection rule: the rule itself (anomalies.rule.ts) called
// per series in memory, with any settings, on the series the rule may be tuned on: NAB's two open
// categories (NAB_DIR; its other categories are held out and never read here), the seeded
// synthetic series, and the demo project's points (bench/detection/demo-points.ts). Seconds per
// setting instead of bench:detection's half hour through the real ingestion; bench:detection stays
// the measurement of record (same rule, same scorer, through the real evaluator on both stores).
// A detection is the first day of each anomaly (a run of fired days on one side, as episodes are);
// --days counts every fired day (how the rule was measured before it grouped days into episodes).
import '../../src/platform/zod-runtime.js';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  dayNumber,
  ruleOf,
  coveredDays,
  type ExpectedEvent,
  explainAcrossSeries,
  type ProjectSeries,
  type CoveringEvent,
  evaluateSeries,
  type EvaluatedPoint,
  type RuleParams,
  type Metric,
  type AnomalySettingsInput,
  DEFAULT_MIN_ABS_CHANGE,
  VOLUME_OF,
  effective,
} from '../../src/modules/anomalies/index.js';
import { addDays } from '../../src/platform/calendar.js';
import { DEMO_EVENTS, demoEventDays } from '../../src/modules/context-events/index.js';
import { DEMO_INCIDENTS } from '../../src/modules/providers/index.js';
import { DEMO_TODAY, demoPoints } from './demo-points.js';
import { OPEN_CATEGORIES, nabDir, readNabFiles } from './nab-corpus.js';
import { scoreCorpus, scoreFile, type CorpusScore } from './nab-scorer.js';
import { type DayRow, holidayPeriods, syntheticSeries } from './synthetic.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const args = process.argv.slice(2);
/** One settings object, or an array of them (a sweep: the series are read once). */
type Overrides = Partial<RuleParams> & { explain_related?: boolean; expected_event_types?: string[] };
const given = JSON.parse(args.find((a) => a.startsWith('{') || a.startsWith('[')) ?? '{}') as Overrides | Overrides[];
const sweep = Array.isArray(given) ? given : [given];
let overrides: Overrides = sweep[0]!;
const flag = (name: string) =>
  args.find((a) => a.startsWith(`--${name}`))?.split('=')[1] ?? (args.includes(`--${name}`) ? 'true' : undefined);
const sets = (flag('sets') ?? 'nab,synthetic,demo').split(',');

/**
 * The rule a metric runs with under the overrides, mapped as the service maps stored settings
 * (effective(), then ruleOf()), so the loop cannot drift from the evaluator: precedent_margin given
 * alone is both sides', day_of_week lowers the training minimum, the volume guards are the
 * metric's. A rule param given in the overrides wins (min_volume too, which the settings only take
 * per metric); explain_related and expected_event_types are settings, not rule params.
 */
export function paramsFor(metric: Metric, o: Overrides = overrides): RuleParams {
  const { explain_related: _explain, expected_event_types: _types, ...rule } = o;
  return { ...ruleOf(effective(o as AnomalySettingsInput), metric), ...rule };
}

/** The first day of each run of fired days on one side (what an episode starts on). */
export function episodeStarts(rows: EvaluatedPoint[], gap = 1): Set<number> {
  const starts = new Set<number>();
  const last = { spike: -Infinity, drop: -Infinity };
  for (const r of rows) {
    if (!r.fired || !r.direction) continue;
    if (r.d - last[r.direction] > gap) starts.add(r.d);
    last[r.direction] = r.d;
  }
  return starts;
}

const fresh = (covered?: ReadonlyMap<number, CoveringEvent>) => ({
  excluded: new Set<number>(),
  anchor: null,
  run: null,
  ...(covered ? { covered } : {}),
});

/**
 * The days the series' context events cover under the settings' expected_event_types, as the
 * evaluator reads them (anomalies.events.ts). NAB has no events.
 */
function covered(events: ExpectedEvent[]): Map<number, CoveringEvent> {
  const types = effective(overrides as AnomalySettingsInput).expected_event_types;
  return coveredDays(events.filter((e) => types.includes(e.event_type))).get('p') ?? new Map();
}

/** The synthetic series' holidays (synthetic.ts holiday()), one event each, as a team records them. */
export function syntheticEvents(rows: DayRow[]): ExpectedEvent[] {
  return holidayPeriods(rows[0]!.date, rows.at(-1)!.date).map((h, i) => ({
    project_id: 'p',
    id: `evt_holiday_${i}`,
    title: h.title,
    event_type: 'holiday',
    event_date: h.from,
    active_until: h.to,
  }));
}
const fmt = (c: CorpusScore) =>
  `NAB ${c.normalized.toFixed(1).padStart(6)}  F1 ${c.f1.toFixed(3)}  found ${c.detectedWindows}/${c.windows}  prec ${(100 * c.precision).toFixed(0)}%  fires/1000 ${c.firesPer1000.toFixed(1)}`;

const nabFiles = new Map<string, ReturnType<typeof readNabFiles>>();
function nab(): void {
  const dir = nabDir();
  if (!dir) throw new Error('NAB_DIR must point at a checkout of github:numenta/NAB');
  const p = paramsFor('spend');
  for (const category of [...OPEN_CATEGORIES, 'both']) {
    if (!nabFiles.has(category))
      nabFiles.set(category, readNabFiles(dir, category === 'both' ? OPEN_CATEGORIES : [category]));
    const files = nabFiles.get(category)!;
    const scored = files.map((f) => {
      const dates = f.values.map((_, i) => addDays('2000-01-01', i));
      const dayOf = new Map(f.timestamps.map((t, i) => [t, dates[i]!]));
      const points = f.values.map((value, i) => ({ d: dayNumber(dates[i]!), value, volume: null }));
      const { rows } = evaluateSeries(points, points[0]!.d, p, fresh());
      const starts = flag('days') ? new Set(rows.filter((r) => r.fired).map((r) => r.d)) : episodeStarts(rows);
      const s = scoreFile(
        dates,
        points.map((pt) => starts.has(pt.d)),
        f.windows.map(([a, b]) => [dayOf.get(String(a))!, dayOf.get(String(b))!] as const),
      );
      if (flag('per-file') && category === 'both')
        console.log(
          `  ${f.relativePath.padEnd(60)} ${s.score.toFixed(2).padStart(7)} (null ${s.nullScore}) det ${s.detectionsInWindows}+${s.detectionsOutside} win ${s.detectedWindows}/${s.scoredWindows}`,
        );
      return s;
    });
    console.log(`${category.padEnd(22)} ${fmt(scoreCorpus(scored))}`);
  }
}

function metricOf(r: DayRow, m: string): number | null {
  const ratio = (a: number, b: number) => (b ? a / b : null);
  if (m === 'roas') return ratio(r.revenue, r.spend);
  if (m === 'cpa') return ratio(r.spend, r.conversions);
  if (m === 'ctr') return ratio(r.clicks, r.impressions);
  if (m === 'cvr') return ratio(r.conversions, r.clicks);
  return r[m as keyof DayRow] as number;
}

function synthetic(): void {
  const scored = syntheticSeries(2).map((s) => {
    const volumeMetric = VOLUME_OF[s.metric as Metric];
    const points = s.rows
      .map((r) => ({
        d: dayNumber(r.date),
        value: metricOf(r, s.metric),
        volume: volumeMetric ? (metricOf(r, volumeMetric) ?? 0) : null,
      }))
      .filter((pt): pt is { d: number; value: number; volume: number | null } => pt.value !== null);
    const { rows } = evaluateSeries(
      points,
      points[0]!.d,
      paramsFor(s.metric as Metric),
      fresh(covered(syntheticEvents(s.rows))),
    );
    if (flag('verbose'))
      for (const r of rows.filter((x) => x.fired || x.explainedByEvent))
        console.log(`  ${s.name} ${addDays('2000-01-03', r.d)} ${r.status} z ${r.z?.toFixed(2)}`);
    const starts = flag('days') ? new Set(rows.filter((r) => r.fired).map((r) => r.d)) : episodeStarts(rows);
    const scored = scoreFile(
      s.rows.map((r) => r.date),
      s.rows.map((r) => starts.has(dayNumber(r.date))),
      s.windows,
    );
    if (flag('per-file'))
      console.log(
        `  ${s.name.padEnd(32)} ${scored.score.toFixed(2).padStart(7)} (null ${scored.nullScore}) det ${scored.detectionsInWindows}+${scored.detectionsOutside} win ${scored.detectedWindows}/${scored.scoredWindows}  first days ${[...starts].map((d) => addDays('2000-01-03', d)).join(' ')}`,
      );
    return scored;
  });
  console.log(`${'synthetic'.padEnd(22)} ${fmt(scoreCorpus(scored))}`);
}

async function demo(): Promise<void> {
  const points = await demoPoints(path.join(root, '.tmp'));
  const since = dayNumber(addDays(DEMO_TODAY, -30));
  const channels = [...new Set(points.map((p) => p.channel))];
  const metrics = Object.keys(DEFAULT_MIN_ABS_CHANGE) as Metric[];
  const days = covered(
    DEMO_EVENTS.map((e) => {
      const w = demoEventDays(e, DEMO_TODAY);
      return {
        project_id: 'p',
        id: `evt_demo_${e.key}`,
        title: e.title,
        event_type: e.type,
        event_date: w.event_date,
        active_until: addDays(w.end_date ?? w.event_date, w.impact_window_days),
      };
    }),
  );
  const series: ProjectSeries[] = [];
  for (const channel of channels)
    for (const metric of metrics) {
      const volumeMetric = VOLUME_OF[metric];
      const pts = points
        .filter((p) => p.channel === channel && p[metric] !== null)
        .map((p) => ({
          d: p.d,
          value: p[metric] as number,
          volume: volumeMetric ? ((p[volumeMetric] as number) ?? 0) : null,
        }));
      if (pts.length)
        series.push({ channel, metric, rows: evaluateSeries(pts, pts[0]!.d, paramsFor(metric), fresh(days)).rows });
    }
  if (effective(overrides as AnomalySettingsInput).explain_related) explainAcrossSeries(series);
  let firedDays = 0;
  let anomalies = 0;
  const found = DEMO_INCIDENTS.map((incident) => {
    const s = series.find((x) => x.channel === incident.channel && x.metric === incident.metric);
    const row = s?.rows.find((r) => r.d === dayNumber(addDays(DEMO_TODAY, -incident.daysAgo)));
    if (flag('verbose'))
      console.log(`  incident ${incident.channel}/${incident.metric}: z ${row?.z?.toFixed(2)} ${row?.status}`);
    return row?.fired === true && row.direction === (incident.factor > 1 ? 'spike' : 'drop');
  });
  for (const s of series) {
    const recent = s.rows.filter((r) => r.d >= since);
    firedDays += recent.filter((r) => r.fired).length;
    anomalies += [...episodeStarts(s.rows)].filter((d) => d >= since).length;
    if (flag('verbose'))
      for (const r of recent.filter((x) => x.fired || x.status === 'explained' || x.status === 'precedented'))
        console.log(
          `  ${r.status} ${s.channel}/${s.metric} ${addDays(DEMO_TODAY, r.d - dayNumber(DEMO_TODAY))} z ${r.z?.toFixed(2)}${r.explainedByEvent ? ` (${r.explainedByEvent.title})` : ''}`,
        );
  }
  console.log(
    `${'demo (last 30 days)'.padEnd(22)} fired days ${firedDays}  anomalies ${anomalies}  incidents ${found.filter(Boolean).length}/4 ${found.map((f) => (f ? 'y' : 'n')).join('')}`,
  );
}

const isMain = process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1]);
for (const one of isMain ? sweep : []) {
  overrides = one;
  if (sweep.length > 1) console.log(`== ${JSON.stringify(one)}`);
  if (sets.includes('nab')) nab();
  if (sets.includes('synthetic')) synthetic();
  if (sets.includes('demo')) await demo();
}
if (isMain) process.exit(0);
