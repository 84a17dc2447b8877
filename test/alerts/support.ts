import { expect } from 'vitest';
import { api, type RunningService } from '../support/service.js';
import { awaitRun } from '../support/flows.js';
import { until } from '../support/scratch-database.js';

/** The test environment of an alerting service: loopback receivers allowed, fast retries, links. */
export const ALERT_ENV = {
  ALERTS_ALLOW_PRIVATE_NETWORKS: 'true',
  ALERTS_RETRY_BASE_SECONDS: '1',
  // Generous: an attempt that times out on a busy machine is retried, and a receiver without ids
  // (Slack, Teams) would then count two. The timeout scenario waits this long once.
  ALERTS_TIMEOUT_SECONDS: '10',
  ALERTS_MAX_ATTEMPTS: '3',
  PUBLIC_BASE_URL: 'https://hub.example.com',
};

/** A project with the demo provider's datastream (it injects incidents in the last 30 days). */
export async function demoDatastream(service: RunningService, project: string, startDate: string): Promise<string> {
  const conn = await api(`${service.url}/api/credentials`, {
    method: 'POST',
    json: { project_id: project, provider: 'demo', connection_ref_id: 'demo-main', config: { campaigns: 10, seed: 7 } },
  });
  expect(conn.status).toBe(200);
  const up = await api(`${service.url}/api/flows/upsert`, {
    method: 'POST',
    json: {
      project_id: project,
      kind: 'datastream',
      definition: {
        name: 'Main',
        connection_ref_id: 'demo-main',
        provider: 'demo',
        cadence: 'manual',
        retrieval_window: { lookback_days: 7, start_date: startDate },
      },
    },
  });
  expect(up.status).toBe(200);
  return up.body.datastream.id as string;
}

export async function createDestination(
  service: RunningService,
  body: Record<string, unknown>,
): Promise<{ id: string; signing_secret?: string }> {
  const res = await api(`${service.url}/api/alerts/destinations`, { method: 'POST', json: body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

export async function createRule(service: RunningService, body: Record<string, unknown>): Promise<{ id: string }> {
  const res = await api(`${service.url}/api/alerts/rules`, { method: 'POST', json: body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

/** Runs the datastream and waits until the alerts evaluation of its closing fact is done. */
export async function runAndEvaluate(service: RunningService, project: string, datastreamId: string): Promise<string> {
  const queued = await api(`${service.url}/api/flows/${datastreamId}/run`, { method: 'POST' });
  expect(queued.status).toBeLessThan(300);
  const run = await awaitRun(service, project, queued.body.id);
  expect(run.status).toBe('succeeded');
  await evaluated(service, run.id);
  return run.id;
}

/** Waits (bounded polling) until the `dataset.transformed` fact of a run has been evaluated. */
export async function evaluated(service: RunningService, runId: string): Promise<void> {
  await until(
    () =>
      service.app.db.query<{ n: number }>(
        `SELECT count(*) AS n FROM alert_evaluations e JOIN facts f ON f.seq = e.fact_seq
         WHERE f.type = 'dataset.transformed' AND f.payload->>'run_id' = $1`,
        [runId],
      ),
    (rows) => Number(rows[0]!.n) >= 1,
  );
}

export interface Delivery {
  id: string;
  status: string;
  destination: { id: string; name: string; kind: string };
  rule: { id: string | null; name: string };
  item_count: number;
  attempt_count: number;
  last_error: string | null;
  attempts: {
    attempt: number;
    outcome: string;
    http_status: number | null;
    latency_ms: number | null;
    error: string | null;
    response_excerpt: string | null;
    finished_at: string | null;
    retry_at: string | null;
  }[];
}

export async function deliveries(
  service: RunningService,
  project: string,
  filter: Record<string, string> = {},
): Promise<Delivery[]> {
  const q = new URLSearchParams({ project_id: project, limit: '200', ...filter });
  const res = await api(`${service.url}/api/alerts/deliveries?${q}`);
  expect(res.status).toBe(200);
  return res.body.deliveries;
}

/** Polls the delivery log (bounded) until the destination's deliveries satisfy `ok`. */
export function deliveriesUntil(
  service: RunningService,
  project: string,
  destinationId: string,
  ok: (d: Delivery[]) => boolean,
): Promise<Delivery[]> {
  return until(() => deliveries(service, project, { destination_id: destinationId }), ok);
}
