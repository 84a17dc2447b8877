import type { LedgerRow } from './dq.repo.js';

export function presentCheck(r: LedgerRow) {
  return {
    check_id: r.id,
    monitor: r.monitor,
    datastream_id: r.datastream_id,
    dataset: r.dataset,
    status: r.status,
    observed: r.observed,
    threshold: r.threshold,
    run_id: r.run_id,
    started_at: new Date(r.started_at).toISOString(),
    finished_at: new Date(r.finished_at).toISOString(),
    message: r.message,
  };
}
export type CheckOutput = ReturnType<typeof presentCheck>;
