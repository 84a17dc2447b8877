import type { RequestContext } from '../../app/context.js';
import type { Database } from '../../platform/db/database.js';
import { addDays, todayIn } from '../money/calendar.js';
import { findProject } from '../projects/projects.repo.js';
import { insertEvents, type NewEvent } from './context-events.repo.js';
import type { EventType } from './context-events.schemas.js';

interface DemoEvent {
  key: string;
  daysAgo: number;
  lastsDays?: number;
  impact?: number;
  type: EventType;
  title: string;
  description: string;
}

/** A month in the life of the demo shop, so insights have something to cite. */
const DEMO_EVENTS: DemoEvent[] = [
  { key: 'spring_sale', daysAgo: 27, lastsDays: 4, impact: 3, type: 'promotion', title: 'Spring sale: 20% off tents and sleeping bags', description: 'Sitewide banner and a coupon in the newsletter; expect higher conversion rate and lower average order value.' },
  { key: 'checkout_v2', daysAgo: 19, type: 'release', title: 'Checkout v2 released', description: 'One-page checkout with Apple Pay. Watch CVR and payment errors in the week after.' },
  { key: 'consent_mode', daysAgo: 14, impact: 14, type: 'tracking_change', title: 'Consent banner switched to consent mode v2', description: 'Fewer tracked conversions for users who decline cookies; conversions may look lower without a real drop.' },
  { key: 'psp_outage', daysAgo: 9, impact: 1, type: 'outage', title: 'Payment provider outage (3 hours)', description: 'Card payments failed 14:00–17:00 shop time; revenue and conversions dipped that afternoon.' },
  { key: 'meta_budget', daysAgo: 6, impact: 10, type: 'budget_change', title: 'Meta prospecting budget +40%', description: 'Daily budget raised from 500 to 700 USD on the summer prospecting campaigns.' },
  { key: 'summer_launch', daysAgo: 3, type: 'campaign_launch', title: 'Summer collection campaigns live on Google and Meta', description: 'New search, Performance Max and Meta campaigns for the summer collection.' },
];

/** Idempotent: fixed ids per project, so a second run inserts nothing. */
export function contextEventsDemoSeeder(db: Database) {
  return async (ctx: RequestContext, projectId: string): Promise<void> => {
    const project = await findProject(db, projectId);
    if (!project) return;
    const today = todayIn(ctx.clock, project.timezone);
    const now = ctx.clock.now();
    const rows: NewEvent[] = DEMO_EVENTS.map((e) => ({
      id: `evt_demo_${e.key}`,
      project_id: projectId,
      event_type: e.type,
      title: e.title,
      description: e.description,
      event_date: addDays(today, -e.daysAgo),
      end_date: e.lastsDays ? addDays(today, -e.daysAgo + e.lastsDays) : null,
      impact_window_days: e.impact ?? 7,
      actor: 'demo-seed',
      now,
    }));
    await insertEvents(db, rows);
  };
}
