import { api, type RunningService } from '../support/service.js';

export type Run = {
  id: string;
  status: 'queued' | 'running' | 'succeeded' | 'failed';
  retries_exhausted: boolean;
  attempts: number;
  window: { from: string; to: string };
  rows_read: number;
  rows_written: number;
  source_wait_ms: number;
  error: string | null;
  waiting_reason: string | null;
  datastream_id: string;
  started_at: string | null;
  finished_at: string | null;
};

/** Polls the runs API (bounded) until the run leaves queued/running or reaches `until`. */
export async function awaitRun(
  service: RunningService,
  projectId: string,
  runId: string,
  until: (r: Run) => boolean = (r) => r.status === 'succeeded' || r.status === 'failed',
): Promise<Run> {
  for (let i = 0; i < 3000; i += 1) {
    const res = await api(`${service.url}/api/flows/runs?project_id=${projectId}&limit=500`);
    const run = (res.body.runs as Run[]).find((r) => r.id === runId);
    if (run && until(run)) return run;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`run ${runId} did not settle`);
}

/** A few published rates (units per EUR) so conversion has something to use; kept if already there. */
export async function seedRates(service: RunningService, rows: [string, string, number][]): Promise<void> {
  for (const [currency, date, rate] of rows) {
    await service.app.db.query(
      `INSERT INTO fx_rates (currency, rate_date, rate_per_eur, source, fetched_at) VALUES ($1, $2, $3, 'test', now()) ON CONFLICT DO NOTHING`,
      [currency, date, rate],
    );
  }
}

/** The rate (per EUR) of `currency` on the last publication on or before `date`, from the store. */
export async function rateOn(service: RunningService, currency: string, date: string): Promise<number> {
  if (currency === 'EUR') return 1;
  const rows = await service.app.db.query<{ r: number }>(
    'SELECT rate_per_eur AS r FROM fx_rates WHERE currency = $1 AND rate_date <= $2 ORDER BY rate_date DESC LIMIT 1',
    [currency, date],
  );
  return Number(rows[0]!.r);
}

export async function createProject(
  service: RunningService,
  id: string,
  reporting_currency = 'USD',
  timezone = 'UTC',
): Promise<void> {
  const res = await api(`${service.url}/api/projects`, {
    method: 'POST',
    json: { id, name: id, reporting_currency, timezone },
  });
  if (res.status !== 201) throw new Error(`project ${id}: ${res.status} ${JSON.stringify(res.body)}`);
}
