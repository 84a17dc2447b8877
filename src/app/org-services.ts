import type { Clock } from '../platform/clock.js';
import type { Database } from '../platform/db/database.js';
import {
  AuditService,
  type MemberChanges,
  MembersService,
  type OrgServices,
  OrgSettingsService,
  ProjectLimits,
  RateLimiter,
} from '../modules/org/index.js';

export { membersCommand } from '../modules/org/index.js';

/**
 * The organization's services, built here for the whole service (services.ts) and for the
 * `members` command, which needs them without the rest of the service.
 */
export function createOrgServices(deps: { db: Database; clock: Clock; changes?: MemberChanges }): OrgServices {
  const audit = new AuditService(deps.db);
  const settings = new OrgSettingsService(deps.db, audit, deps.clock);
  const members = new MembersService(deps.db, audit, settings, deps.changes);
  const rateLimiter = new RateLimiter(deps.clock, async () => (await settings.limits()).api_requests_per_minute);
  return { audit, settings, members, rateLimiter, projectLimits: new ProjectLimits(deps.db, settings) };
}

/** The members service alone (the `members` command). */
export const createMembers = (deps: { db: Database; clock: Clock; changes?: MemberChanges }): MembersService =>
  createOrgServices(deps).members;
