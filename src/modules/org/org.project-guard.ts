import type { RequestContext } from '../../platform/context/request-context.js';
import type { Database } from '../../platform/db/database.js';
import { assertOrgRole } from './org.policy.js';
import { countProjects } from './org.repo.js';
import type { OrgSettingsService } from './settings.service.js';

/** Project creation needs the organization admin role and stays within the projects limit. */
export function orgProjectCreationGuard(
  settings: OrgSettingsService,
): (ctx: RequestContext, db: Database) => Promise<void> {
  return async (ctx, db) => {
    assertOrgRole(ctx, 'admin');
    await settings.assertWithinLimit('projects', await countProjects(db));
  };
}
