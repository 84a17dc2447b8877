import type { SqlExecutor } from '../../platform/db/database.js';
import type { MessageStatus } from './alerts.schemas.js';

// Evaluations, messages, the exactly-once item ledger and attempts. SQL only.

export interface FactRow {
  seq: number;
  type: string;
  project_id: string;
  payload: Record<string, unknown>;
  occurred_at: Date;
}

export async function readFact(db: SqlExecutor, seq: number): Promise<FactRow | undefined> {
  const [row] = await db.query<FactRow>(
    'SELECT seq, type, project_id, payload, occurred_at FROM facts WHERE seq = $1',
    [seq],
  );
  return row;
}

/** The anomaly and data-quality facts of one run (several copies when its after-run job ran again). */
export async function runFacts(db: SqlExecutor, projectId: string, runId: string): Promise<FactRow[]> {
  return db.query<FactRow>(
    `SELECT seq, type, project_id, payload, occurred_at FROM facts
     WHERE project_id = $1 AND payload->>'run_id' = $2 AND type IN ('anomaly.detected', 'dq.check_failed')
     ORDER BY seq`,
    [projectId, runId],
  );
}

/** Triggering facts between `since` and `before` that no evaluation has taken (the sweep). */
export async function unevaluatedFacts(db: SqlExecutor, since: Date, before: Date, limit: number): Promise<number[]> {
  const rows = await db.query<{ seq: number }>(
    `SELECT f.seq FROM facts f
     WHERE f.type IN ('dataset.transformed', 'run.failed', 'insight.composed') AND f.occurred_at > $1 AND f.occurred_at <= $2
       -- As the subscription's condition (alerts.routing.ts mayAlert): only recent days can be digests.
       AND (f.type <> 'insight.composed' OR f.payload->>'date' >= to_char((f.occurred_at AT TIME ZONE 'UTC')::date - 2, 'YYYY-MM-DD'))
       AND NOT EXISTS (SELECT 1 FROM alert_evaluations e WHERE e.fact_seq = f.seq)
     ORDER BY f.seq LIMIT $3`,
    [since, before, limit],
  );
  return rows.map((r) => Number(r.seq));
}

/**
 * Takes a fact's evaluation inside the evaluating transaction. False when another evaluation
 * has it (that one committed, or this insert waits for it and then finds the row).
 */
export async function takeEvaluation(db: SqlExecutor, seq: number, projectId: string, now: Date): Promise<boolean> {
  const rows = await db.query(
    `INSERT INTO alert_evaluations (fact_seq, project_id, evaluated_at, messages, muted) VALUES ($1, $2, $3, 0, 0)
     ON CONFLICT (fact_seq) DO NOTHING RETURNING fact_seq`,
    [seq, projectId, now],
  );
  return rows.length === 1;
}

export async function finishEvaluation(db: SqlExecutor, seq: number, messages: number, muted: number): Promise<void> {
  await db.query('UPDATE alert_evaluations SET messages = $2, muted = $3 WHERE fact_seq = $1', [seq, messages, muted]);
}

/**
 * Assigns items to a message for one (rule, destination): the keys nobody assigned before are
 * taken and answered; the others were delivered (or are on their way) already. Keys go in sorted
 * order so two transactions over overlapping items wait for each other instead of deadlocking.
 */
export async function claimItems(
  db: SqlExecutor,
  c: { ruleId: string; destinationId: string; keys: string[]; messageId: string; now: Date },
): Promise<Set<string>> {
  const keys = [...new Set(c.keys)].sort();
  if (keys.length === 0) return new Set();
  const rows = await db.query<{ item_key: string }>(
    `INSERT INTO alert_message_items (rule_id, destination_id, item_key, message_id, created_at)
     SELECT $1, $2, k, $4, $5 FROM unnest($3::text[]) WITH ORDINALITY AS t(k, n) ORDER BY n
     ON CONFLICT DO NOTHING RETURNING item_key`,
    [c.ruleId, c.destinationId, keys, c.messageId, c.now],
  );
  return new Set(rows.map((r) => r.item_key));
}

export interface MessageRow {
  id: string;
  project_id: string;
  rule_id: string | null;
  rule_name: string;
  destination_id: string;
  destination_name: string;
  kind: string;
  source: string;
  event_type: string;
  fact_seq: number | null;
  run_id: string | null;
  payload: Record<string, unknown>;
  item_count: number;
  status: MessageStatus;
  attempts: number;
  max_attempts: number;
  deliver_after: Date;
  lease_until: Date | null;
  queued_at: Date | null;
  last_error: string | null;
  created_at: Date;
  delivered_at: Date | null;
}

const MESSAGE = `id, project_id, rule_id, rule_name, destination_id, destination_name, kind, source, event_type, fact_seq,
  run_id, payload, item_count, status, attempts, max_attempts, deliver_after, lease_until, queued_at, last_error,
  created_at, delivered_at`;

export type NewMessage = Omit<MessageRow, 'attempts' | 'lease_until' | 'queued_at' | 'last_error' | 'delivered_at'>;

export async function insertMessage(db: SqlExecutor, m: NewMessage): Promise<void> {
  await db.query(
    `INSERT INTO alert_messages (id, project_id, rule_id, rule_name, destination_id, destination_name, kind, source,
       event_type, fact_seq, run_id, payload, item_count, status, max_attempts, deliver_after, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)`,
    [
      m.id,
      m.project_id,
      m.rule_id,
      m.rule_name,
      m.destination_id,
      m.destination_name,
      m.kind,
      m.source,
      m.event_type,
      m.fact_seq,
      m.run_id,
      m.payload,
      m.item_count,
      m.status,
      m.max_attempts,
      m.deliver_after,
      m.created_at,
    ],
  );
}

export async function findMessage(db: SqlExecutor, id: string): Promise<MessageRow | undefined> {
  const [row] = await db.query<MessageRow>(`SELECT ${MESSAGE} FROM alert_messages WHERE id = $1`, [id]);
  return row;
}

export async function markQueued(db: SqlExecutor, ids: string[], now: Date): Promise<void> {
  if (ids.length) await db.query('UPDATE alert_messages SET queued_at = $2 WHERE id = ANY($1::text[])', [ids, now]);
}

/**
 * Takes a message for one attempt: a pending one, or one whose previous holder's lease lapsed (a
 * process killed mid-attempt). The attempt is counted and logged as `interrupted` at once, so an
 * attempt that never finishes is still seen, and one process at a time holds the message.
 */
export async function claimMessage(
  db: SqlExecutor,
  id: string,
  now: Date,
  leaseUntil: Date,
): Promise<MessageRow | undefined> {
  const [row] = await db.query<MessageRow>(
    `UPDATE alert_messages SET status = 'delivering', attempts = attempts + 1, lease_until = $3
     WHERE id = $1 AND (status = 'pending' OR (status = 'delivering' AND lease_until < $2))
     RETURNING ${MESSAGE}`,
    [id, now, leaseUntil],
  );
  if (row)
    await db.query(
      `INSERT INTO alert_attempts (message_id, attempt, started_at, outcome) VALUES ($1, $2, $3, 'interrupted')
       ON CONFLICT (message_id, attempt) DO NOTHING`,
      [id, row.attempts, now],
    );
  return row;
}

export interface AttemptResult {
  outcome: 'delivered' | 'retry' | 'failed' | 'dead';
  http_status: number | null;
  latency_ms: number;
  error: string | null;
  response_excerpt: string | null;
  retry_at: Date | null;
}

/** Ends an attempt: the attempt row, and the message's next state (only while this holder has it). */
export async function finishAttempt(
  db: SqlExecutor,
  m: { id: string; attempt: number; now: Date },
  result: AttemptResult,
): Promise<void> {
  await db.query(
    `UPDATE alert_attempts SET finished_at = $3, outcome = $4, http_status = $5, latency_ms = $6, error = $7,
       response_excerpt = $8, retry_at = $9 WHERE message_id = $1 AND attempt = $2`,
    [
      m.id,
      m.attempt,
      m.now,
      result.outcome,
      result.http_status,
      result.latency_ms,
      result.error,
      result.response_excerpt,
      result.retry_at,
    ],
  );
  const status: MessageStatus =
    result.outcome === 'delivered'
      ? 'delivered'
      : result.outcome === 'retry'
        ? 'pending'
        : result.outcome === 'failed'
          ? 'failed'
          : 'dead';
  await db.query(
    `UPDATE alert_messages SET status = $3, lease_until = NULL, last_error = $4,
       delivered_at = CASE WHEN $3 = 'delivered' THEN $5::timestamptz ELSE delivered_at END,
       deliver_after = COALESCE($6::timestamptz, deliver_after), queued_at = $5
     WHERE id = $1 AND attempts = $2 AND status = 'delivering'`,
    [m.id, m.attempt, status, result.error, m.now, result.retry_at],
  );
}

/** Held messages whose quiet hours ended become pending; answers their ids. */
export async function releaseHeld(db: SqlExecutor, now: Date, limit: number): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    `UPDATE alert_messages SET status = 'pending', queued_at = $1
     WHERE id IN (SELECT id FROM alert_messages WHERE status = 'held' AND deliver_after <= $1 ORDER BY deliver_after LIMIT $2)
     RETURNING id`,
    [now, limit],
  );
  return rows.map((r) => r.id);
}

/**
 * Messages a job should be working on but apparently is not: due and pending with no job queued
 * for two minutes, or held by a lease that lapsed a minute ago (its process died and its job too).
 */
export async function strandedMessages(db: SqlExecutor, now: Date, limit: number): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    `SELECT id FROM alert_messages
     WHERE (status = 'pending' AND deliver_after <= $1 AND (queued_at IS NULL OR queued_at < $1::timestamptz - interval '2 minutes'))
        OR (status = 'delivering' AND lease_until < $1::timestamptz - interval '1 minute')
     ORDER BY deliver_after LIMIT $2`,
    [now, limit],
  );
  return rows.map((r) => r.id);
}

/** Sends a dead (or failed) message again with a fresh budget of attempts. */
export async function requeue(db: SqlExecutor, id: string, extraAttempts: number, now: Date): Promise<boolean> {
  const rows = await db.query(
    `UPDATE alert_messages SET status = 'pending', max_attempts = attempts + $2, deliver_after = $3, queued_at = $3
     WHERE id = $1 AND status IN ('dead', 'failed') RETURNING id`,
    [id, extraAttempts, now],
  );
  return rows.length === 1;
}

export interface AttemptRow {
  message_id: string;
  attempt: number;
  started_at: Date;
  finished_at: Date | null;
  outcome: 'interrupted' | 'delivered' | 'retry' | 'failed' | 'dead';
  http_status: number | null;
  latency_ms: number | null;
  error: string | null;
  response_excerpt: string | null;
  retry_at: Date | null;
}

/** The delivery log: newest first, keyset on (created_at, id), with each message's attempts. */
export async function listMessages(
  db: SqlExecutor,
  q: {
    projectId: string;
    status?: string | undefined;
    ruleId?: string | undefined;
    destinationId?: string | undefined;
    after?: [string, string] | undefined;
    limit: number;
  },
): Promise<{ messages: MessageRow[]; attempts: AttemptRow[] }> {
  const messages = await db.query<MessageRow>(
    `SELECT ${MESSAGE} FROM alert_messages
     WHERE project_id = $1 AND ($2::text IS NULL OR status = $2) AND ($3::text IS NULL OR rule_id = $3)
       AND ($4::text IS NULL OR destination_id = $4)
       AND ($5::timestamptz IS NULL OR (created_at, id) < ($5::timestamptz, $6::text))
     ORDER BY created_at DESC, id DESC LIMIT $7`,
    [
      q.projectId,
      q.status ?? null,
      q.ruleId ?? null,
      q.destinationId ?? null,
      q.after?.[0] ?? null,
      q.after?.[1] ?? null,
      q.limit,
    ],
  );
  const attempts = await attemptsOf(
    db,
    messages.map((m) => m.id),
  );
  return { messages, attempts };
}

export async function attemptsOf(db: SqlExecutor, ids: string[]): Promise<AttemptRow[]> {
  if (ids.length === 0) return [];
  return db.query<AttemptRow>(
    `SELECT message_id, attempt, started_at, finished_at, outcome, http_status, latency_ms, error, response_excerpt, retry_at
     FROM alert_attempts WHERE message_id = ANY($1::text[]) ORDER BY message_id, attempt`,
    [ids],
  );
}

/** PagerDuty messages that opened an incident under `dedupKey` (for its `resolve`). */
export async function triggersFor(db: SqlExecutor, projectId: string, dedupKey: string): Promise<MessageRow[]> {
  return db.query<MessageRow>(
    `SELECT ${MESSAGE} FROM alert_messages
     WHERE project_id = $1 AND kind = 'pagerduty' AND event_type IN ('alert.fired', 'alert.test')
       AND payload->'pagerduty'->>'dedup_key' = $2
     ORDER BY created_at`,
    [projectId, dedupKey],
  );
}
