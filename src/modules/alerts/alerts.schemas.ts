import { z } from 'zod';
import { PageQuery } from '../../platform/pagination.js';
import { Direction, Metric } from '../anomalies/index.js';
import { CalendarDate } from '../../platform/calendar.js';
import { ProjectId } from '../projects/index.js';

export const DESTINATION_KINDS = ['webhook', 'slack', 'teams', 'email', 'pagerduty'] as const;
export type DestinationKind = (typeof DESTINATION_KINDS)[number];

/** What a rule listens to; each maps to the facts it reads (docs/alerts.md, "Sources"). */
export const ALERT_SOURCES = ['anomaly', 'data_quality', 'run_failed', 'daily_insight'] as const;
export type AlertSource = (typeof ALERT_SOURCES)[number];

export const MESSAGE_STATUSES = ['held', 'pending', 'delivering', 'delivered', 'failed', 'dead'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

export const DEFAULT_PAGERDUTY_EVENTS_URL = 'https://events.pagerduty.com/v2/enqueue';

const Name = z.string().trim().min(1).max(100);
const DestinationIdPattern = /^dest_[a-z0-9]{1,40}$/;
const RuleIdPattern = /^rule_[a-z0-9]{1,40}$/;
export const DestinationId = z.string().regex(DestinationIdPattern, 'must be a destination id (dest_…)');
export const RuleId = z.string().regex(RuleIdPattern, 'must be a rule id (rule_…)');
export const MuteId = z.string().regex(/^mute_[a-z0-9]{1,40}$/, 'must be a mute id (mute_…)');
export const MessageId = z.string().regex(/^msg_[a-z0-9]{1,40}$/, 'must be a delivery id (msg_…)');

// Per-kind settings, checked by the service against the destination's kind (paths name the field).
const Url = z.string().max(2048).describe('http(s) URL; a credential, so it is a secret.');
export const KIND_SCHEMAS = {
  webhook: { config: z.object({}).strict(), secrets: z.object({ url: Url }).strict() },
  slack: { config: z.object({}).strict(), secrets: z.object({ url: Url }).strict() },
  teams: { config: z.object({}).strict(), secrets: z.object({ url: Url }).strict() },
  email: {
    config: z
      .object({
        host: z.string().trim().min(1).max(253),
        port: z.number().int().min(1).max(65535).default(587),
        secure: z.boolean().default(false).describe('true: TLS from the first byte (port 465); false: STARTTLS.'),
        require_tls: z.boolean().default(false).describe('With secure false: refuse to send without STARTTLS.'),
        from: z.email(),
        to: z.array(z.email()).min(1).max(20),
      })
      .strict(),
    secrets: z
      .object({ user: z.string().min(1).max(256).optional(), password: z.string().min(1).max(1024).optional() })
      .strict(),
  },
  pagerduty: {
    config: z.object({ events_url: Url.default(DEFAULT_PAGERDUTY_EVENTS_URL) }).strict(),
    secrets: z.object({ routing_key: z.string().min(1).max(128) }).strict(),
  },
} as const satisfies Record<DestinationKind, { config: z.ZodType; secrets: z.ZodType }>;

const ConfigField = z
  .record(z.string(), z.unknown())
  .describe(
    'Not secret. email: {host, port, secure, require_tls, from, to[]}; pagerduty: {events_url} ' +
      `(default ${DEFAULT_PAGERDUTY_EVENTS_URL}); webhook, slack, teams: {}.`,
  );
const SecretsField = z
  .record(z.string(), z.unknown())
  .describe(
    'Encrypted at rest, never returned. webhook, slack, teams: {url}; email: {user, password}; pagerduty: ' +
      '{routing_key}. A webhook signing secret (whsec_…) is generated and shown once.',
  );

export const CreateDestinationInput = z
  .object({
    project_id: ProjectId,
    name: Name,
    kind: z.enum(DESTINATION_KINDS),
    config: ConfigField.default({}),
    secrets: SecretsField.default({}),
    enabled: z.boolean().default(true),
  })
  .strict();
export type CreateDestinationInput = z.infer<typeof CreateDestinationInput>;

export const UpdateDestinationInput = z
  .object({
    name: Name.optional(),
    config: ConfigField.optional().describe('Replaces the whole configuration.'),
    secrets: SecretsField.optional().describe('Merged over the stored secrets: named keys replace, others stay.'),
    enabled: z.boolean().optional(),
    rotate_signing_secret: z
      .literal(true)
      .optional()
      .describe('webhook: a new whsec_… secret, shown once in this answer; the old one stops signing at once.'),
  })
  .strict()
  .refine((patch) => Object.keys(patch).length > 0, 'name at least one field to change');
export type UpdateDestinationInput = z.infer<typeof UpdateDestinationInput>;

const Clock = z
  .string()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a time of day HH:MM (00:00–23:59)')
  .describe('HH:MM in the project time zone.');
export const QuietHours = z
  .object({ from: Clock, to: Clock })
  .strict()
  .refine((q) => q.from !== q.to, { message: 'from and to must differ', path: ['to'] })
  .describe('Messages due inside [from, to) wait and go out at `to`; the window may wrap midnight (22:00–07:00).');
export type QuietHours = z.infer<typeof QuietHours>;

export const RuleFilters = z
  .object({
    metrics: z.array(Metric).max(20).optional().describe('Anomalies of these metrics only (default: every metric).'),
    channels: z
      .array(z.string().min(1).max(100))
      .max(50)
      .optional()
      .describe('Anomalies on these channels only (default: every channel).'),
    direction: Direction.default('both').describe('spike, drop or both.'),
    min_abs_z: z.number().min(0).max(1000).optional().describe('Anomalies with |z| at least this.'),
    min_score: z
      .number()
      .min(0)
      .max(1)
      .optional()
      .describe('Anomalies with a score at least this; applies to anomalies that carry a score.'),
    include_totals: z
      .boolean()
      .default(true)
      .describe('Whether anomalies of the project total (channel "_total") count.'),
  })
  .strict();
export type RuleFilters = z.infer<typeof RuleFilters>;

const ruleFields = {
  name: Name,
  on: z
    .array(z.enum(ALERT_SOURCES))
    .min(1)
    .max(4)
    .describe(`What the rule alerts on: ${ALERT_SOURCES.join(', ')}.`),
  filters: RuleFilters.default({ direction: 'both', include_totals: true }),
  destinations: z.array(DestinationId).min(1).max(20).describe('Destination ids of the same project.'),
  quiet_hours: QuietHours.nullable().default(null),
  enabled: z.boolean().default(true),
};

export const CreateRuleInput = z.object({ project_id: ProjectId, ...ruleFields }).strict();
export type CreateRuleInput = z.infer<typeof CreateRuleInput>;

export const UpdateRuleInput = z
  .object({
    name: ruleFields.name.optional(),
    on: ruleFields.on.optional(),
    filters: RuleFilters.optional().describe('Replaces the filters whole.'),
    destinations: ruleFields.destinations.optional(),
    quiet_hours: QuietHours.nullable().optional().describe('null removes them.'),
    enabled: z.boolean().optional(),
  })
  .strict()
  .refine((patch) => Object.keys(patch).length > 0, 'name at least one field to change');
export type UpdateRuleInput = z.infer<typeof UpdateRuleInput>;

export const CreateMuteInput = z
  .object({
    project_id: ProjectId,
    metric: Metric.optional(),
    channel: z.string().min(1).max(100).optional(),
    until: CalendarDate.describe('Last muted day (YYYY-MM-DD, project time zone), inclusive.'),
    rule_id: RuleId.optional().describe('Only this rule (default: every rule of the project).'),
    reason: z.string().trim().max(500).default(''),
  })
  .strict()
  .refine((m) => m.metric !== undefined || m.channel !== undefined, {
    message: 'name a metric, a channel or both',
    path: ['metric'],
  });
export type CreateMuteInput = z.infer<typeof CreateMuteInput>;

export const UpdateMuteInput = z
  .object({ until: CalendarDate.optional(), reason: z.string().trim().max(500).optional() })
  .strict()
  .refine((patch) => Object.keys(patch).length > 0, 'name at least one field to change');
export type UpdateMuteInput = z.infer<typeof UpdateMuteInput>;

export const ProjectQuery = PageQuery.extend({ project_id: ProjectId }).strict();
export const DeliveriesQuery = PageQuery.extend({
  project_id: ProjectId,
  status: z.enum(MESSAGE_STATUSES).optional(),
  rule_id: RuleId.optional(),
  destination_id: DestinationId.optional(),
}).strict();
export type DeliveriesQuery = z.infer<typeof DeliveriesQuery>;

export const DestinationParams = z.object({ id: DestinationId });
export const RuleParams = z.object({ id: RuleId });
export const MuteParams = z.object({ id: MuteId });
export const MessageParams = z.object({ id: MessageId });

// ---- answers ----

const TestOutcome = z.object({
  ok: z.boolean(),
  at: z.string(),
  http_status: z.number().nullable(),
  latency_ms: z.number(),
  error: z.string().nullable(),
});

export const DestinationOutput = z.object({
  id: z.string(),
  project_id: z.string(),
  name: z.string(),
  kind: z.enum(DESTINATION_KINDS),
  config: z.record(z.string(), z.unknown()),
  secret_fields: z.array(z.string()).describe('Names of the stored secrets; values are never returned.'),
  target: z.string().nullable().describe('The host messages go to (not the URL: that is a credential).'),
  enabled: z.boolean(),
  rules: z.array(z.object({ id: z.string(), name: z.string() })),
  last_test: TestOutcome.nullable(),
  created_at: z.string(),
  created_by: z.string(),
  updated_at: z.string(),
  updated_by: z.string(),
  signing_secret: z
    .string()
    .optional()
    .describe('webhook, on create and rotation only: the whsec_… secret receivers verify with. Shown once.'),
});
export type DestinationOutput = z.infer<typeof DestinationOutput>;
export const DestinationListOutput = z.object({
  destinations: z.array(DestinationOutput),
  next_cursor: z.string().nullable(),
});

export const TestDeliveryOutput = TestOutcome.extend({
  delivery_id: z.string(),
  response_excerpt: z.string().nullable(),
});

export const RuleOutput = z.object({
  id: z.string(),
  project_id: z.string(),
  name: z.string(),
  on: z.array(z.enum(ALERT_SOURCES)),
  filters: RuleFilters,
  destinations: z.array(z.object({ id: z.string(), name: z.string(), kind: z.string() })),
  quiet_hours: z.object({ from: z.string(), to: z.string() }).nullable(),
  enabled: z.boolean(),
  created_at: z.string(),
  created_by: z.string(),
  updated_at: z.string(),
  updated_by: z.string(),
});
export type RuleOutput = z.infer<typeof RuleOutput>;
export const RuleListOutput = z.object({ rules: z.array(RuleOutput), next_cursor: z.string().nullable() });

export const MuteOutput = z.object({
  id: z.string(),
  project_id: z.string(),
  rule_id: z.string().nullable(),
  metric: z.string().nullable(),
  channel: z.string().nullable(),
  until: z.string(),
  active: z.boolean().describe('Whether it silences today (project time zone).'),
  reason: z.string(),
  created_at: z.string(),
  created_by: z.string(),
});
export type MuteOutput = z.infer<typeof MuteOutput>;
export const MuteListOutput = z.object({ mutes: z.array(MuteOutput), next_cursor: z.string().nullable() });

export const AttemptOutput = z.object({
  attempt: z.number(),
  started_at: z.string(),
  finished_at: z.string().nullable(),
  outcome: z
    .enum(['interrupted', 'delivered', 'retry', 'failed', 'dead'])
    .describe('interrupted: the process delivering it stopped mid-attempt (another process retries it).'),
  http_status: z.number().nullable(),
  latency_ms: z.number().nullable(),
  error: z.string().nullable(),
  response_excerpt: z.string().nullable().describe('At most 500 bytes of the receiver’s answer.'),
  retry_at: z.string().nullable(),
});

export const DeliveryOutput = z.object({
  id: z.string().describe('The message id: the webhook-id a webhook receiver sees on every attempt.'),
  project_id: z.string(),
  rule: z.object({ id: z.string().nullable(), name: z.string() }),
  destination: z.object({ id: z.string(), name: z.string(), kind: z.string() }),
  source: z.string(),
  event_type: z.string(),
  run_id: z.string().nullable(),
  title: z.string(),
  item_count: z.number(),
  status: z.enum(MESSAGE_STATUSES),
  attempt_count: z.number(),
  max_attempts: z.number(),
  deliver_after: z.string(),
  created_at: z.string(),
  delivered_at: z.string().nullable(),
  last_error: z.string().nullable(),
  attempts: z.array(AttemptOutput),
});
export type DeliveryOutput = z.infer<typeof DeliveryOutput>;
export const DeliveryListOutput = z.object({ deliveries: z.array(DeliveryOutput), next_cursor: z.string().nullable() });
