import type { RequestContext } from '../../../platform/context/request-context.js';
import type { Database } from '../../../platform/db/database.js';
import { addDays, todayIn } from '../../../platform/calendar.js';
import type { ProjectsService } from '../../projects/index.js';
import * as repo from '../anomalies.repo.js';
import * as feedbackRepo from './feedback.repo.js';
import * as detection from '../detection/index.js';
import type { AnomalySettingsInput } from '../detection/index.js';
import { FEEDBACK_DAYS } from './feedback.schemas.js';

/** A triaged anomaly of the period: its series, its days and the verdict. */
interface Verdict {
  channel: string;
  metric: string;
  first: number;
  last: number;
  false_positive: boolean;
}

const CONFIRMED = ['acknowledged', 'resolved', 'expected'];

/**
 * Feedback into settings: how precise surveillance was per metric and channel
 * by what people said, and what candidate settings would have done to the same days. A replay
 * runs the real evaluator (computeSeries) over the project's data with the candidate and writes
 * nothing; an anomaly "still fires" when the replay fires any of its days.
 */
export class AnomalyFeedbackService {
  constructor(
    private readonly db: Database,
    private readonly projects: ProjectsService,
  ) {}

  private async period(ctx: RequestContext, projectId: string) {
    const resolved = await this.projects.resolve(ctx, projectId, 'data.read');
    const to = addDays(todayIn(ctx.clock, resolved.project.timezone), -1);
    return { project: resolved.project.id, from: addDays(to, -(FEEDBACK_DAYS - 1)), to };
  }

  async precision(ctx: RequestContext, projectId: string) {
    const p = await this.period(ctx, projectId);
    const rows = await feedbackRepo.precisionRows(this.db, p.project, p.from, p.to, CONFIRMED);
    return {
      project_id: p.project,
      from: p.from,
      to: p.to,
      rows: rows.map((r) => ({
        ...r,
        precision: r.confirmed + r.false_positives > 0 ? r.confirmed / (r.confirmed + r.false_positives) : null,
      })),
    };
  }

  async suggest(ctx: RequestContext, projectId: string) {
    const p = await this.period(ctx, projectId);
    const stored = ((await repo.readSettings(this.db, p.project))?.settings ?? {}) as AnomalySettingsInput;
    const verdicts = (await feedbackRepo.verdictRows(this.db, p.project, p.from, p.to, CONFIRMED)).map((v) => ({
      ...v,
      first: Number(v.first),
      last: Number(v.last),
      false_positive: v.status === 'false_positive',
    }));
    const replay = async (label: string, settings: AnomalySettingsInput) => {
      const s = detection.effective(settings);
      const results = await detection.computeSeries(
        this.db,
        [p.project],
        p.from,
        p.to,
        addDays(p.from, -detection.lookbackDays(s)),
        s,
      );
      const firedDays = new Map<string, Set<number>>();
      let fired = 0;
      for (const r of results) {
        const days = new Set(r.rows.filter((row) => row.fired).map((row) => row.d));
        firedDays.set(`${r.channel}|${r.metric}`, days);
        // Runs of consecutive fired days, as episodes count them.
        for (const d of days) if (!days.has(d - 1)) fired += 1;
      }
      const fires = (v: Verdict) => {
        const days = firedDays.get(`${v.channel}|${v.metric}`);
        for (let d = v.first; d <= v.last; d += 1) if (days?.has(d)) return true;
        return false;
      };
      const fp = verdicts.filter((v) => v.false_positive);
      const ok = verdicts.filter((v) => !v.false_positive);
      const fpFired = fp.filter(fires).length;
      const okFired = ok.filter(fires).length;
      return {
        label,
        settings,
        fired,
        false_positives_silenced: fp.length - fpFired,
        false_positives_still_fired: fpFired,
        confirmed_still_fired: okFired,
        confirmed_missed: ok.length - okFired,
      };
    };
    const current = detection.effective(stored);
    const candidates: { label: string; settings: AnomalySettingsInput }[] = [];
    for (const step of [0.5, 1, 2])
      candidates.push({
        label: `threshold ${current.threshold + step} σ`,
        settings: { ...stored, threshold: current.threshold + step },
      });
    for (const seasonality of ['auto', 'day_of_week', 'none'] as const)
      if (seasonality !== current.seasonality)
        candidates.push({ label: `seasonality ${seasonality}`, settings: { ...stored, seasonality } });
    // The volume guard: ratio metrics need twice the current minimum count behind them.
    const metrics = { ...(stored.metrics ?? {}) } as NonNullable<AnomalySettingsInput['metrics']>;
    let guarded = false;
    for (const m of current.metrics)
      if (m.volume_metric && m.min_volume !== null) {
        metrics[m.metric] = { ...(metrics[m.metric] ?? {}), min_volume: m.min_volume * 2 };
        guarded = true;
      }
    if (guarded) candidates.push({ label: 'volume guard ×2 on ratio metrics', settings: { ...stored, metrics } });
    const out = [];
    for (const c of candidates) out.push(await replay(c.label, c.settings));
    return {
      project_id: p.project,
      from: p.from,
      to: p.to,
      false_positives: verdicts.filter((v) => v.false_positive).length,
      confirmed: verdicts.filter((v) => !v.false_positive).length,
      current: await replay('current settings', stored),
      // Most false positives silenced first, then the most confirmed anomalies kept.
      candidates: out.sort(
        (a, b) =>
          b.false_positives_silenced - a.false_positives_silenced || b.confirmed_still_fired - a.confirmed_still_fired,
      ),
    };
  }
}
