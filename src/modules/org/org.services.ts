import type { AuditService } from './audit.service.js';
import type { MembersService } from './members.service.js';
import type { ProjectLimits } from './project-limits.js';
import type { RateLimiter } from './rate-limit.js';
import type { OrgSettingsService } from './settings.service.js';

/** The organization module: audit log, settings and limits, members and grants, rate limit. */
export interface OrgServices {
  audit: AuditService;
  settings: OrgSettingsService;
  members: MembersService;
  rateLimiter: RateLimiter;
  projectLimits: ProjectLimits;
}
