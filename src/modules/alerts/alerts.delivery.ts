import { randomBytes } from 'node:crypto';
import type { Clock } from '../../platform/clock.js';
import type { Config } from '../../platform/config.js';
import type { Database } from '../../platform/db/database.js';
import type { JobAttempt, JobQueues, QueueHandle } from '../../platform/jobs/queues.js';
import type { Logger } from '../../platform/logger.js';
import type { OutboundOptions } from '../../platform/outbound/outbound-http.js';
import type { SecretBox } from '../credentials/index.js';
import type { MessagePayload } from './alerts.content.js';
import * as config from './alerts.config.repo.js';
import * as repo from './alerts.delivery.repo.js';
import { nextDelayMs, type RetryPolicy } from './alerts.retry.js';
import { SENDERS, type SendResult } from './senders/index.js';

export const DELIVER_QUEUE = 'alerts.deliver';

export function newMessageId(): string {
  return `msg_${randomBytes(12).toString('hex')}`;
}

/**
 * Delivery: one pg-boss job per attempt of a message. A job takes the message (a lease as long as
 * an attempt may last), sends it through its destination's sender, logs the attempt and decides:
 * delivered; retried later (exponential backoff with jitter, or the receiver's Retry-After), by a
 * job queued to start then; or dead-lettered (attempts used up, or a failure retrying cannot fix),
 * which the delivery log shows. A job that finds the message held by a live lease waits for it;
 * a process killed mid-attempt leaves its attempt `interrupted` and its lease lapses, so the next
 * job (pg-boss retries the dead one; the sweep re-queues what nobody holds) sends it again with
 * the same id. Every receiver so sees each message at least once and can drop a copy by its id.
 */
export class AlertDelivery {
  private readonly queue: QueueHandle<{ message_id: string }>;
  readonly policy: RetryPolicy;

  constructor(
    private readonly deps: {
      db: Database;
      jobs: JobQueues;
      clock: Clock;
      log: Logger;
      config: Config;
      box: SecretBox;
    },
  ) {
    this.policy = { baseSeconds: deps.config.alertsRetryBaseSeconds, maxAttempts: deps.config.alertsMaxAttempts };
    this.queue = deps.jobs.define<{ message_id: string }>({
      name: DELIVER_QUEUE,
      // Our own retry schedule covers failed sends; pg-boss's retries cover a job whose process died.
      retryLimit: 5,
      retryDelay: 2,
      retryBackoff: true,
      expireInSeconds: 300,
      heartbeatSeconds: 10,
      concurrency: 4,
      handler: (job) => this.deliver(job),
    });
  }

  get outbound(): OutboundOptions {
    return {
      allowPrivate: this.deps.config.alertsAllowPrivateNetworks,
      timeoutMs: this.deps.config.alertsTimeoutSeconds * 1000,
    };
  }

  /** How long one holder keeps a message: an attempt's bound plus time to record it. */
  private leaseMs(): number {
    return this.deps.config.alertsTimeoutSeconds * 1000 + 15_000;
  }

  /** Queues a job for each message (after the transaction that created them committed). */
  async enqueue(ids: string[], startAfterMs = 0): Promise<void> {
    if (ids.length === 0) return;
    await repo.markQueued(this.deps.db, ids, this.deps.clock.now());
    for (const id of ids)
      await this.queue.send(
        { message_id: id },
        startAfterMs > 0 ? { startAfter: new Date(Date.now() + startAfterMs) } : {},
      );
  }

  /** Takes a message for one attempt; the claim and its `interrupted` attempt row commit together. */
  claim(id: string, now: Date, leaseMs = this.leaseMs()): Promise<repo.MessageRow | undefined> {
    return this.deps.db.transaction((tx) => repo.claimMessage(tx, id, now, new Date(now.getTime() + leaseMs)));
  }

  private async deliver(job: JobAttempt<{ message_id: string }>): Promise<void> {
    const id = job.data.message_id;
    const now = this.deps.clock.now();
    const message = await this.claim(id, now);
    if (!message) {
      // Held by another attempt whose lease has not lapsed (its process may be gone): try after it.
      const current = await repo.findMessage(this.deps.db, id);
      if (current?.status === 'delivering' && current.lease_until)
        await this.queue.send(
          { message_id: id },
          { startAfter: new Date(Date.now() + Math.max(1000, current.lease_until.getTime() - now.getTime() + 1000)) },
        );
      return;
    }
    await this.attempt(message);
  }

  /** One attempt of a claimed message; answers how it ended. */
  async attempt(message: repo.MessageRow): Promise<SendResult> {
    const { db, clock } = this.deps;
    const destination = await config.findDestination(db, message.destination_id);
    let result: SendResult;
    if (!destination) result = notSent('the destination was deleted');
    else if (!destination.enabled && message.source !== 'test') result = notSent('the destination is disabled');
    else {
      try {
        result = await SENDERS[destination.kind].send({
          id: message.id,
          payload: message.payload as unknown as MessagePayload,
          config: destination.config,
          secrets: this.deps.box.open(destination.secrets_ciphertext),
          // Wall-clock by design (see Outgoing.sentAt): a receiver checks it against its own clock.
          sentAt: new Date(),
          outbound: this.outbound,
        });
      } catch (error) {
        this.deps.log.error({ err: error, message: message.id }, 'alert sender failed unexpectedly');
        result = {
          outcome: 'retry',
          httpStatus: null,
          latencyMs: 0,
          error: 'internal error while sending',
          excerpt: null,
        };
      }
    }
    const now = clock.now();
    const attempt = Number(message.attempts);
    const isTest = message.source === 'test';
    let outcome: repo.AttemptResult['outcome'];
    let retryAt: Date | null = null;
    if (result.outcome === 'delivered') outcome = 'delivered';
    else if (isTest) outcome = 'failed';
    else if (result.outcome === 'retry' && attempt < Number(message.max_attempts)) {
      outcome = 'retry';
      retryAt = new Date(now.getTime() + nextDelayMs(attempt, this.policy, result.retryAfterMs));
    } else outcome = 'dead';
    const error =
      outcome === 'dead' && result.outcome === 'retry'
        ? `${result.error}; gave up after ${attempt} attempts`
        : result.error;
    await db.transaction((tx) =>
      repo.finishAttempt(
        tx,
        { id: message.id, attempt, now },
        {
          outcome,
          http_status: result.httpStatus,
          latency_ms: result.latencyMs,
          error,
          response_excerpt: result.excerpt,
          retry_at: retryAt,
        },
      ),
    );
    if (retryAt)
      await this.queue.send(
        { message_id: message.id },
        { startAfter: new Date(Date.now() + (retryAt.getTime() - now.getTime())) },
      );
    if (outcome === 'dead')
      this.deps.log.warn(
        { message: message.id, destination: message.destination_id, attempts: attempt, error },
        'alert message dead-lettered',
      );
    return { ...result, error };
  }

  /**
   * PagerDuty `resolve` for the incident opened under `dedupKey` (an anomaly id; triage calls this
   * when it resolves that anomaly): one resolve message per PagerDuty destination that got the
   * trigger, exactly once (the ledger's key `resolve:<dedup key>`), sent at once (no quiet hours).
   */
  async resolve(projectId: string, dedupKey: string): Promise<string[]> {
    const { db, clock } = this.deps;
    const triggers = await repo.triggersFor(db, projectId, dedupKey);
    const now = clock.now();
    const created = await db.transaction(async (tx) => {
      const ids: string[] = [];
      for (const trigger of triggers) {
        const id = newMessageId();
        const claimed = await repo.claimItems(tx, {
          ruleId: trigger.rule_id ?? '(test)',
          destinationId: trigger.destination_id,
          keys: [`resolve:${dedupKey}`],
          messageId: id,
          now,
        });
        if (claimed.size === 0) continue;
        const opened = trigger.payload as unknown as MessagePayload;
        const payload: MessagePayload = {
          ...opened,
          type: 'alert.resolved',
          title: `Resolved: ${opened.title}`,
          created_at: now.toISOString(),
          pagerduty: { action: 'resolve', dedup_key: dedupKey, severity: opened.pagerduty?.severity ?? 'info' },
        };
        await repo.insertMessage(tx, {
          ...trigger,
          id,
          source: 'resolve',
          event_type: 'alert.resolved',
          payload: payload as unknown as Record<string, unknown>,
          status: 'pending',
          max_attempts: this.policy.maxAttempts,
          deliver_after: now,
          created_at: now,
        });
        ids.push(id);
      }
      return ids;
    });
    await this.enqueue(created);
    return created;
  }

  /**
   * The sweep (each scheduler tick): releases held messages whose quiet hours ended and re-queues
   * messages that should be moving but are not (a job lost between a commit and its send, a
   * holder that died together with its job).
   */
  async sweep(now: Date): Promise<{ released: number; requeued: number }> {
    const released = await repo.releaseHeld(this.deps.db, now, 500);
    const stranded = await repo.strandedMessages(this.deps.db, now, 500);
    await this.enqueue([...released, ...stranded]);
    return { released: released.length, requeued: stranded.length };
  }
}

function notSent(reason: string): SendResult {
  return { outcome: 'permanent', httpStatus: null, latencyMs: 0, error: reason, excerpt: null };
}
