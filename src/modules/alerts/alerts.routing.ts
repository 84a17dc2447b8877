import type { Clock } from '../../platform/clock.js';
import type { Config } from '../../platform/config.js';
import type { Database } from '../../platform/db/database.js';
import type { JobQueues, QueueHandle } from '../../platform/jobs/queues.js';
import type { Logger } from '../../platform/logger.js';
import type { ContextEventsService } from '../context-events/index.js';
import type { Fact, FactsService, FactType } from '../facts/index.js';
import type { InsightsService } from '../insights/index.js';
import { addDays, todayIn } from '../../platform/calendar.js';
import type { ProjectsService } from '../projects/index.js';
import * as config from './alerts.config.repo.js';
import { type MessagePayload, type PagerDutySeverity, MAX_LISTED_ITEMS, titleFor } from './alerts.content.js';
import { type AlertDelivery, newMessageId } from './alerts.delivery.js';
import * as repo from './alerts.delivery.repo.js';
import {
  type AlertItem,
  anomalyCountOf,
  anomalyItemsOf,
  type DailyInsightItem,
  dataQualityItemOf,
  runFailedItemOf,
  SOURCE_OF,
  severityRank,
} from './alerts.items.js';
import { anomalyPasses, mutedBy, releaseAfterQuietHours } from './alerts.matching.js';
import { type AlertSource, RuleFilters } from './alerts.schemas.js';

export const EVALUATE_QUEUE = 'alerts.evaluate';

/**
 * The facts that close a unit of alerting and the sources each one carries. A run's anomalies
 * and failed checks are read when its `dataset.transformed` arrives (the after-run job publishes
 * it after them), so one run gives one message per rule, whatever mix of items it holds.
 */
const TRIGGERS: Partial<Record<FactType, AlertSource[]>> = {
  'dataset.transformed': ['anomaly', 'data_quality'],
  'run.failed': ['run_failed'],
  'insight.composed': ['daily_insight'],
};

/** How far back the sweep looks for triggering facts nobody evaluated. */
const SWEEP_LOOKBACK_MS = 24 * 3600_000;
/** A fact younger than this is left to its own job. */
const SWEEP_GRACE_MS = 30_000;

type Project = NonNullable<Awaited<ReturnType<ProjectsService['findRow']>>>;

/**
 * Rules → grouping → messages (Grafana's shape: the rule matches items, routing groups them per
 * rule and destination, the contact point sends). One evaluation per triggering fact, taken in
 * the transaction that writes its messages; each item is assigned to at most one message per
 * (rule, destination), ever, by the ledger's primary key. A re-run of the same window, a retried
 * after-run job, a retried evaluation or two replicas therefore create no second message for an item.
 */
export class AlertRouter {
  private readonly queue: QueueHandle<{ fact: Pick<Fact, 'seq'> }>;

  constructor(
    private readonly deps: {
      db: Database;
      jobs: JobQueues;
      clock: Clock;
      log: Logger;
      config: Config;
      projects: ProjectsService;
      contextEvents: ContextEventsService;
      insights: InsightsService;
      facts: FactsService;
      delivery: AlertDelivery;
    },
  ) {
    this.queue = deps.jobs.define<{ fact: Pick<Fact, 'seq'> }>({
      name: EVALUATE_QUEUE,
      retryLimit: 5,
      retryDelay: 5,
      retryBackoff: true,
      expireInSeconds: 300,
      concurrency: 2,
      handler: async (job) => {
        await this.evaluate(Number(job.data.fact.seq));
      },
    });
    for (const type of Object.keys(TRIGGERS) as FactType[]) deps.facts.on(type, this.queue, mayAlert);
  }

  /** Evaluates one triggering fact once; answers what it created (undefined when already done). */
  async evaluate(seq: number): Promise<{ messages: number; held: number; muted: number } | undefined> {
    const { db, clock } = this.deps;
    const fact = await repo.readFact(db, seq);
    const sources = fact && TRIGGERS[fact.type as FactType];
    if (!fact || !sources) return undefined;
    const project = await this.deps.projects.findRow(fact.project_id);
    const rules = project ? await config.rulesFor(db, project.id, sources, new Date(fact.occurred_at)) : [];
    const now = clock.now();
    const today = project ? todayIn(clock, project.timezone) : '';
    const wanted = new Set(rules.flatMap((r) => r.sources));
    const { items, unlisted } =
      project && rules.length ? await this.itemsOf(fact, project, wanted) : { items: [], unlisted: 0 };
    const mutes = project && items.length ? await config.activeMutes(db, project.id, today) : [];
    const created: { id: string; status: 'held' | 'pending' }[] = [];
    let muted = 0;
    const took = await db.transaction(async (tx) => {
      if (!(await repo.takeEvaluation(tx, seq, fact.project_id, now))) return false;
      for (const rule of project ? rules : []) {
        const filters = RuleFilters.parse(rule.filters);
        const matching: AlertItem[] = [];
        for (const item of items) {
          if (!rule.sources.includes(SOURCE_OF[item.type])) continue;
          if (item.type === 'anomaly' && !anomalyPasses(item, filters)) continue;
          if (mutedBy(item, rule.id, mutes, today)) {
            muted += 1;
            continue;
          }
          matching.push(item);
        }
        if (matching.length === 0) continue;
        for (const destination of rule.destinations) {
          if (!destination.enabled) continue;
          const id = newMessageId();
          const claimed = await repo.claimItems(tx, {
            ruleId: rule.id,
            destinationId: destination.id,
            keys: matching.map((i) => i.id),
            messageId: id,
            now,
          });
          if (claimed.size === 0) continue;
          const mine = matching.filter((i) => claimed.has(i.id)).sort((a, b) => severityRank(b) - severityRank(a));
          const payload = this.payloadFor({
            project: project!,
            rule,
            kind: destination.kind,
            items: mine,
            unlisted: mine.some((i) => i.type === 'anomaly') ? unlisted : 0,
            runId: typeof fact.payload.run_id === 'string' ? fact.payload.run_id : null,
            window: windowOf(fact.payload),
            now,
          });
          const deliverAfter = releaseAfterQuietHours(now, rule.quiet_hours, project!.timezone);
          const status = deliverAfter.getTime() > now.getTime() ? 'held' : 'pending';
          await repo.insertMessage(tx, {
            id,
            project_id: project!.id,
            rule_id: rule.id,
            rule_name: rule.name,
            destination_id: destination.id,
            destination_name: destination.name,
            kind: destination.kind,
            source: [...new Set(mine.map((i) => SOURCE_OF[i.type]))].join(','),
            event_type: payload.type,
            fact_seq: seq,
            run_id: payload.run_id,
            payload: payload as unknown as Record<string, unknown>,
            item_count: mine.length,
            status,
            max_attempts: this.deps.config.alertsMaxAttempts,
            deliver_after: deliverAfter,
            created_at: now,
          });
          created.push({ id, status });
        }
      }
      await repo.finishEvaluation(tx, seq, created.length, muted);
      return true;
    });
    if (!took) return undefined;
    await this.deps.delivery.enqueue(created.filter((c) => c.status === 'pending').map((c) => c.id));
    return { messages: created.length, held: created.filter((c) => c.status === 'held').length, muted };
  }

  /** What a triggering fact holds for the sources the rules want. */
  private async itemsOf(
    fact: repo.FactRow,
    project: Project,
    wanted: Set<string>,
  ): Promise<{ items: AlertItem[]; unlisted: number }> {
    const items = new Map<string, AlertItem>();
    let unlisted = 0;
    if (fact.type === 'dataset.transformed' && typeof fact.payload.run_id === 'string') {
      for (const f of await repo.runFacts(this.deps.db, project.id, fact.payload.run_id)) {
        if (f.type === 'anomaly.detected' && wanted.has('anomaly')) {
          const listed = anomalyItemsOf(f.payload);
          for (const item of listed) items.set(item.id, item);
          unlisted = Math.max(unlisted, anomalyCountOf(f.payload, listed.length) - listed.length);
        }
        if (f.type === 'dq.check_failed' && wanted.has('data_quality')) {
          const item = dataQualityItemOf(f.payload);
          if (item) items.set(item.id, item);
        }
      }
      await this.addContextEvents(project.id, [...items.values()]);
    }
    if (fact.type === 'run.failed') {
      const item = runFailedItemOf(fact.payload);
      if (item) items.set(item.id, item);
    }
    if (fact.type === 'insight.composed') {
      const item = await this.insightItem(project, fact.payload);
      if (item) items.set(item.id, item);
    }
    return { items: [...items.values()], unlisted };
  }

  private async addContextEvents(projectId: string, items: AlertItem[]): Promise<void> {
    const byDate = new Map<string, Awaited<ReturnType<ContextEventsService['activeOn']>>>();
    for (const item of items) {
      if (item.type !== 'anomaly') continue;
      if (!byDate.has(item.last_date))
        byDate.set(item.last_date, await this.deps.contextEvents.activeOn(projectId, item.last_date));
      item.context_events = byDate.get(item.last_date)!.map((e) => ({
        id: e.id,
        event_type: e.event_type,
        title: e.title,
        event_date: e.event_date,
      }));
    }
  }

  /**
   * The digest is the latest complete day's insight, sent the first time it is composed after the
   * day ended; recompositions of it (late data) and of older days are not sent again.
   */
  private async insightItem(project: Project, payload: Record<string, unknown>): Promise<DailyInsightItem | undefined> {
    const date = typeof payload.date === 'string' ? payload.date : undefined;
    if (!date || date !== addDays(todayIn(this.deps.clock, project.timezone), -1)) return undefined;
    const insight = await this.deps.insights.findFor(project.id, date);
    if (!insight) return undefined;
    const shown = new Set(['revenue', 'spend', 'roas', 'conversions']);
    return {
      type: 'daily_insight',
      id: `insight:${date}`,
      date,
      version: insight.version,
      currency: insight.record.currency,
      kpis: insight.record.kpis
        .filter((k) => shown.has(k.metric))
        .map((k) => ({ metric: k.metric, value: k.value, day_over_day_pct: k.day_over_day_pct })),
      anomalies: insight.record.anomalies.length,
      context_events: insight.record.context_events.map((e) => ({
        id: e.id,
        event_type: e.event_type,
        title: e.title,
        event_date: e.event_date,
      })),
      narrative_md: insight.narrative_md,
    };
  }

  private payloadFor(m: {
    project: Project;
    rule: config.RuleRow;
    kind: string;
    items: AlertItem[];
    unlisted: number;
    runId: string | null;
    window: { from: string; to: string } | null;
    now: Date;
  }): MessagePayload {
    const base = this.deps.config.publicBaseUrl;
    const page = (path: string) => (base ? `${base}/console/${encodeURIComponent(m.project.id)}/${path}` : null);
    const listed = m.items.slice(0, MAX_LISTED_ITEMS).map((item) => ({ ...item, url: page(pathOf(item)) }));
    const payload: MessagePayload = {
      type: 'alert.fired',
      title: titleFor(m.items, m.project.name),
      project: { id: m.project.id, name: m.project.name, timezone: m.project.timezone },
      rule: { id: m.rule.id, name: m.rule.name },
      run_id: m.runId,
      window: m.window,
      sources: [...new Set(m.items.map((i) => SOURCE_OF[i.type]))],
      items: listed,
      total: m.items.length,
      unlisted: m.unlisted,
      console_url: page(consolePathOf(m.items)),
      created_at: m.now.toISOString(),
    };
    if (m.kind === 'pagerduty')
      payload.pagerduty = { action: 'trigger', dedup_key: m.items[0]!.id, severity: pagerDutySeverity(m.items[0]!) };
    return payload;
  }

  /** Queues an evaluation for triggering facts nobody evaluated (their job was lost). */
  async sweep(now: Date): Promise<number> {
    const seqs = await repo.unevaluatedFacts(
      this.deps.db,
      new Date(now.getTime() - SWEEP_LOOKBACK_MS),
      new Date(now.getTime() - SWEEP_GRACE_MS),
      200,
    );
    for (const seq of seqs) await this.queue.send({ fact: { seq } });
    return seqs.length;
  }
}

/**
 * A digest is only ever the latest complete day, so the insights a run recomposes for older days
 * (up to two months of them) are not worth a job each: only a day at most two days before the fact
 * can be some time zone's yesterday. The sweep reads facts with the same condition.
 */
function mayAlert(fact: Pick<Fact, 'type' | 'payload' | 'occurred_at'>): boolean {
  if (fact.type !== 'insight.composed') return true;
  const date = fact.payload.date;
  return typeof date === 'string' && date >= addDays(fact.occurred_at.slice(0, 10), -2);
}

function windowOf(payload: Record<string, unknown>): { from: string; to: string } | null {
  const w = payload.window as { from?: unknown; to?: unknown } | undefined;
  return w && typeof w.from === 'string' && typeof w.to === 'string' ? { from: w.from, to: w.to } : null;
}

function sectionOf(item: AlertItem): string {
  return { anomaly: 'anomalies', data_quality: 'data-quality', run_failed: 'runs', daily_insight: 'insights' }[
    item.type
  ];
}

/**
 * The message's link: the one anomaly's page, or the anomalies list from the oldest item's last day
 * (the list's default window, the last 30 days, would miss older ones); other sections as they are.
 */
function consolePathOf(items: AlertItem[]): string {
  const first = items[0]!;
  if (items.length === 1) return pathOf(first);
  if (first.type !== 'anomaly') return sectionOf(first);
  const since = items.reduce((d, i) => (i.type === 'anomaly' && i.last_date < d ? i.last_date : d), first.last_date);
  return `anomalies?${new URLSearchParams({ since })}`;
}

function pathOf(item: AlertItem): string {
  if (item.type === 'daily_insight') return `insights?${new URLSearchParams({ date: item.date })}`;
  if (item.type !== 'anomaly') return sectionOf(item);
  const q = new URLSearchParams({ date: item.last_date, metric: item.metric, channel: item.channel });
  return `anomalies?${q}`;
}

function pagerDutySeverity(item: AlertItem): PagerDutySeverity {
  switch (item.type) {
    case 'run_failed':
      return 'error';
    case 'data_quality':
      return item.status === 'error' ? 'error' : 'warning';
    case 'daily_insight':
      return 'info';
    case 'anomaly': {
      const s = item.severity?.toLowerCase();
      if (s === 'critical' || s === 'error' || s === 'warning' || s === 'info') return s;
      if (s === 'high') return 'error';
      return Math.abs(item.z ?? 0) >= 5 ? 'error' : 'warning';
    }
  }
}
