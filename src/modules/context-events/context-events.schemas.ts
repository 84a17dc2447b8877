import { z } from 'zod';
import { PageQuery } from '../../platform/pagination.js';
import { CalendarDate } from '../../platform/calendar.js';
import { ProjectId, ProjectRef } from '../projects/index.js';

/**
 * Kinds agents and the insight composer know how to read. event_type is an open label: these are
 * suggested (schema description, docs), any other short label is stored as given, normalized.
 */
export const EVENT_TYPES = {
  release: 'a product, site or app release',
  launch: 'a new product, feature or market went live',
  redesign: 'a site, app or page was redesigned',
  checkout_change: 'the checkout or payment flow changed',
  campaign_launch: 'a new campaign or channel went live',
  promotion: 'a sale, discount or coupon period',
  pricing_change: 'list prices or fees changed',
  tracking_change: 'analytics, tagging, consent or attribution changed (data may shift without real change)',
  outage: 'the site, checkout, an ad account or a data feed was down',
  holiday: 'a public holiday or seasonal peak',
  budget_change: 'media budgets or bids changed',
  other: 'anything else worth knowing when reading the numbers',
} as const;

export const MAX_EVENT_TYPE_LENGTH = 64;

/**
 * One spelling per label, so "Checkout Change", "checkout-change" and "checkout_change" are one
 * kind on write and in filters: NFKC, lowercase, every run of characters other than letters,
 * marks and digits becomes one "_", and none is kept at either end.
 */
export function normalizeEventType(label: string): string {
  return label
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}]+/gu, '_')
    .replace(/^_+|_+$/g, '');
}

export const EventType = z
  .string()
  // Bounds the work before normalization; the stored label is checked after it.
  .max(200, 'must be at most 200 characters')
  .transform(normalizeEventType)
  .pipe(
    z
      .string()
      .min(1, 'must contain a letter or digit')
      .max(MAX_EVENT_TYPE_LENGTH, `must be at most ${MAX_EVENT_TYPE_LENGTH} characters once normalized`),
  )
  // The kinds' names only: their meanings, here above, cost ~150 tokens more in two tools' schemas.
  .describe(`Any short label, stored as snake_case; known: ${Object.keys(EVENT_TYPES).join(', ')}.`);
export type EventType = z.output<typeof EventType>;

export const MAX_IMPACT_WINDOW_DAYS = 90;
export const DEFAULT_IMPACT_WINDOW_DAYS = 7;

const Title = z.string().trim().min(1).max(200);
const Description = z.string().trim().max(4000);
const ImpactWindow = z
  .number()
  .int()
  .min(0)
  .max(MAX_IMPACT_WINDOW_DAYS)
  .describe('Days after the event (or its end_date) it may still explain the data.');

const eventFields = {
  event_type: EventType,
  title: Title.describe('Short name, e.g. "Checkout v2 release".'),
  description: Description.default(''),
  event_date: CalendarDate.describe('The day it happened or started, in the project timezone.'),
  end_date: CalendarDate.nullish().describe('Last day of a multi-day event.'),
  impact_window_days: ImpactWindow.default(DEFAULT_IMPACT_WINDOW_DAYS),
};

function endNotBeforeStart(
  value: { event_date: string; end_date?: string | null | undefined },
  ctx: z.RefinementCtx,
): void {
  if (value.end_date && value.end_date < value.event_date) {
    ctx.addIssue({
      code: 'custom',
      path: ['end_date'],
      message: `must be on or after event_date (${value.event_date})`,
    });
  }
}

export const CreateEventInput = z
  .object({ project_id: ProjectId, ...eventFields })
  .strict()
  .superRefine(endNotBeforeStart);
export type CreateEventInput = z.infer<typeof CreateEventInput>;

export const AddEventToolInput = z
  .object({ project_id: ProjectRef, ...eventFields })
  .strict()
  .superRefine(endNotBeforeStart);

export const UpdateEventInput = z
  .object({
    event_type: EventType.optional(),
    title: Title.optional(),
    description: Description.optional(),
    event_date: CalendarDate.optional(),
    end_date: CalendarDate.nullable().optional().describe('null clears it.'),
    impact_window_days: ImpactWindow.optional(),
  })
  .strict()
  .refine((patch) => Object.keys(patch).length > 0, 'name at least one field to change');
export type UpdateEventInput = z.infer<typeof UpdateEventInput>;

export const EventPathParams = z.object({
  id: z.string().regex(/^evt_[a-z0-9_]{1,60}$/, 'must be a context event id (evt_…)'),
});

const listFilters = {
  active_on: CalendarDate.optional().describe('Only events that may explain this day.'),
  event_type: EventType.optional(),
};

export const ListEventsQuery = PageQuery.extend({ project_id: ProjectId, ...listFilters }).strict();
export type ListEventsQuery = z.infer<typeof ListEventsQuery>;

export const ListEventsToolInput = z
  .object({
    project_id: ProjectRef,
    ...listFilters,
    limit: z.number().int().min(1).max(200).default(50).describe('At most this many, newest event_date first.'),
    cursor: z.string().max(500).optional().describe('next_cursor of the previous call.'),
  })
  .strict();

export const EventOutput = z.object({
  id: z.string(),
  project_id: z.string(),
  event_type: z.string().describe('The normalized label (lowercase snake_case).'),
  title: z.string(),
  description: z.string(),
  event_date: z.string(),
  end_date: z.string().nullable(),
  impact_window_days: z.number().int(),
  active_from: z.string().describe('First day the event explains data (= event_date).'),
  active_until: z.string().describe('Last day it explains data: (end_date or event_date) + impact_window_days.'),
  active_today: z.boolean().describe("Whether today, in the project's timezone, is within the active window."),
  created_at: z.string(),
  created_by: z.string(),
  updated_at: z.string(),
});
export type EventOutput = z.infer<typeof EventOutput>;

export const EventListOutput = z.object({ events: z.array(EventOutput), next_cursor: z.string().nullable() });
