import type { RequestContext } from '../../platform/context/request-context.js';
import { roleAllows, scopeFor, type Permission } from '../../platform/auth/permissions.js';
import { ForbiddenError } from '../../platform/errors.js';

/**
 * Organization-level checks. A route's permission can be met by a project grant (an editor who is
 * admin of one project); governing the organization needs the organization role itself.
 */
export function assertOrgRole(ctx: RequestContext, permission: Permission): void {
  const scoped = ctx.actor.scopes !== undefined && !ctx.actor.scopes.has(scopeFor(permission));
  if (scoped || !roleAllows(ctx.actor.role, permission)) {
    throw new ForbiddenError('role_forbidden', `This needs the organization role that carries ${permission}.`, {
      hint: permission === 'owner' ? 'Ask an organization owner.' : 'Ask an organization admin or owner.',
    });
  }
}
