import type { RequestContext } from '../../platform/context/request-context.js';
import type { ProjectsService } from '../projects/index.js';

export const DEMO_PROJECT_ID = 'proj_demo';

/** Each module that has demo content contributes one seeder; they run in registration order. */
export type DemoSeeder = (ctx: RequestContext, projectId: string) => Promise<void>;

/** The demo project's timezone: its "today" (the backfill's last day) is a day there. */
export const DEMO_TIMEZONE = 'America/New_York';

export class DemoSeed {
  /** The seeders run in the order given: each sees what the earlier ones wrote. */
  constructor(
    private readonly projects: ProjectsService,
    private readonly seeders: readonly { name: string; seed: DemoSeeder }[],
  ) {}

  /** Whether the store has no project at all (a first embedded start). */
  async isEmpty(): Promise<boolean> {
    return (await this.projects.count()) === 0;
  }

  /** Creates proj_demo (if missing) and fills it; each seeder is idempotent. */
  async run(ctx: RequestContext): Promise<{ project: string; seeded: string[] }> {
    if (!(await this.projects.findRow(DEMO_PROJECT_ID))) {
      await this.projects.create(ctx, {
        id: DEMO_PROJECT_ID,
        name: 'Demo: Northwind Outdoor marketing',
        reporting_currency: 'USD',
        timezone: DEMO_TIMEZONE,
      });
    }
    const seeded: string[] = [];
    for (const { name, seed } of this.seeders) {
      await seed(ctx, DEMO_PROJECT_ID);
      seeded.push(name);
    }
    return { project: DEMO_PROJECT_ID, seeded };
  }
}
