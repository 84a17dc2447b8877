import type { RequestContext } from '../../platform/context/request-context.js';
import type { Database } from '../../platform/db/database.js';
import { addDays, todayIn } from '../../platform/calendar.js';
import type { ProjectsService } from '../projects/index.js';
import { insertEvents, type NewEvent } from './context-events.repo.js';
import type { EVENT_TYPES } from './context-events.schemas.js';

export interface DemoEvent {
  key: string;
  daysAgo: number;
  lastsDays?: number;
  impact?: number;
  type: keyof typeof EVENT_TYPES;
  title: string;
  description: string;
}

/**
 * A month in the life of the demo shop, so insights have something to cite. Four of them line up
 * with the incidents the demo provider injects (providers/demo.provider.ts DEMO_INCIDENTS: 3, 9,
 * 17 and 24 days ago), the rest are context without a visible spike, as in real life.
 */
export const DEMO_EVENTS: DemoEvent[] = [
  {
    key: 'spring_sale',
    daysAgo: 27,
    lastsDays: 4,
    impact: 3,
    type: 'promotion',
    title: 'Spring sale: 20% off tents and sleeping bags',
    description:
      'Sitewide banner and a newsletter coupon; expect a higher conversion rate and a lower average order value.',
  },
  {
    key: 'video_landing_404',
    daysAgo: 24,
    impact: 1,
    type: 'outage',
    title: 'YouTube campaign landing page returned 404 for a day',
    description:
      'A CMS publish removed /summer-trails; video traffic landed on an error page until the next morning, so video revenue collapsed.',
  },
  {
    key: 'checkout_v2',
    daysAgo: 19,
    type: 'release',
    title: 'Checkout v2 released',
    description: 'One-page checkout with Apple Pay. Watch CVR and payment errors in the week after.',
  },
  {
    key: 'display_test',
    daysAgo: 17,
    impact: 1,
    type: 'budget_change',
    title: 'Display retargeting: budget tripled for a one-day reach test',
    description: 'Planned test of frequency caps; impressions and clicks on display roughly tripled for that day only.',
  },
  {
    key: 'meta_capi_token',
    daysAgo: 9,
    impact: 2,
    type: 'tracking_change',
    title: 'Meta Conversions API token expired',
    description:
      'Server-side events to Meta stopped until the token was renewed; paid social reported far fewer conversions while orders were normal.',
  },
  {
    key: 'free_shipping',
    daysAgo: 6,
    impact: 14,
    type: 'pricing_change',
    title: 'Free shipping threshold lowered from $75 to $50',
    description: 'Expect a higher conversion rate and a lower average order value.',
  },
  {
    key: 'summer_launch',
    daysAgo: 3,
    type: 'campaign_launch',
    title: 'Summer collection campaigns live on Google Search',
    description:
      'New search campaigns with aggressive launch bids; paid search spend is deliberately high in the first days.',
  },
];

/** The days of a demo event as seeded on `today` (bench/detection/tune.ts reads them too). */
export function demoEventDays(e: DemoEvent, today: string) {
  return {
    event_date: addDays(today, -e.daysAgo),
    end_date: e.lastsDays ? addDays(today, -e.daysAgo + e.lastsDays) : null,
    impact_window_days: e.impact ?? 7,
  };
}

/** Idempotent: fixed ids per project, so a second run inserts nothing. */
export function contextEventsDemoSeeder(db: Database, projects: ProjectsService) {
  return async (ctx: RequestContext, projectId: string): Promise<void> => {
    const project = await projects.findRow(projectId);
    if (!project) return;
    const today = todayIn(ctx.clock, project.timezone);
    const now = ctx.clock.now();
    const rows: NewEvent[] = DEMO_EVENTS.map((e) => ({
      id: `evt_demo_${e.key}`,
      project_id: projectId,
      event_type: e.type,
      title: e.title,
      description: e.description,
      ...demoEventDays(e, today),
      actor: 'demo-seed',
      now,
    }));
    await insertEvents(db, rows);
  };
}
