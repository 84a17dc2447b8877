import type { ModelSpec } from '../models/index.js';
import type { AnomaliesService } from './anomalies.service.js';

/**
 * `anomalies_daily` in the model graph, after kpis_daily: the run's dates are re-evaluated in the
 * ingestion transaction, so the dataset never disagrees with the KPIs it was computed from. It also
 * writes the run's row in the evaluator outbox (same transaction), which the after-run job settles:
 * a run that committed always gets its data-quality checks, facts and insight, exactly once.
 */
export function anomaliesModel(anomalies: AnomaliesService, now: () => Date): ModelSpec {
  return {
    name: 'anomalies_daily',
    dependsOn: ['kpis_daily'],
    async build(tx, s) {
      const result = await anomalies.evaluateRange(tx, s.projectId, s.from, s.to);
      await tx.query(
        `INSERT INTO evaluator_outbox (run_id, project_id, datastream_id, date_from, date_to, anomalies_fired, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (run_id) DO UPDATE SET date_from = EXCLUDED.date_from, date_to = EXCLUDED.date_to,
           anomalies_fired = EXCLUDED.anomalies_fired, processed_at = NULL`,
        [s.runId, s.projectId, s.datastreamId, s.from, s.to, result.fired, now()],
      );
      return result.rows;
    },
  };
}
