import { ProjectLimits } from './project-limits.js';
import type { Clock } from '../../platform/clock.js';
import type { Database } from '../../platform/db/database.js';
import type { ProjectsService } from '../projects/projects.service.js';
import { AuditService } from './audit.service.js';
import { type MemberChanges, MembersService } from './members.service.js';
import { assertOrgRole } from './org.policy.js';
import { countProjects } from './org.repo.js';
import { RateLimiter } from './rate-limit.js';
import { OrgSettingsService } from './settings.service.js';

export { orgRoutes } from './org.routes.js';
export type { AuditEntry, AuditRecorder } from './audit.service.js';
export type { LimitName } from './org.schemas.js';
export { AuditService, MembersService, OrgSettingsService, RateLimiter, assertOrgRole };

/** The organization module: audit log, settings and limits, members and grants, rate limit. */
export interface OrgServices {
  audit: AuditService;
  settings: OrgSettingsService;
  members: MembersService;
  rateLimiter: RateLimiter;
  projectLimits: ProjectLimits;
}

export function createOrgServices(deps: { db: Database; clock: Clock; changes?: MemberChanges }): OrgServices {
  const audit = new AuditService(deps.db);
  const settings = new OrgSettingsService(deps.db, audit, deps.clock);
  const members = new MembersService(deps.db, audit, settings, deps.changes);
  const rateLimiter = new RateLimiter(deps.clock, async () => (await settings.limits()).api_requests_per_minute);
  return { audit, settings, members, rateLimiter, projectLimits: new ProjectLimits(deps.db, settings) };
}

/** Project creation needs the organization admin role and stays within the projects limit. */
export function guardProjectCreation(projects: ProjectsService, org: OrgServices): void {
  projects.addCreationGuard(async (ctx, db) => {
    assertOrgRole(ctx, 'admin');
    await org.settings.assertWithinLimit('projects', await countProjects(db));
  });
}
