import type { Permission, Role } from './permissions.js';
import { roleAllows, scopeFor } from './permissions.js';

/**
 * Who is calling, resolved once per request by the authenticator. `projects: 'all'` is the local
 * operator (disabled and static modes) or an organization-wide role; otherwise a map of grants.
 */
export interface Actor {
  subject: string;
  email?: string;
  kind: 'operator' | 'member' | 'token';
  /** Organization role: what the actor may do at all. */
  role: Role;
  /** Per-project roles; 'all' grants every project at `role`. */
  projects: 'all' | ReadonlyMap<string, Role>;
  /** Scopes of the token when it carried a `scope` claim; undefined means not narrowed. */
  scopes?: ReadonlySet<string>;
}

export const OPERATOR: Actor = { subject: 'operator', kind: 'operator', role: 'owner', projects: 'all' };

/** Whether the actor's role (and token scope) carries the permission at all, on any project. */
export function actorHas(actor: Actor, permission: Permission): boolean {
  if (actor.scopes && !actor.scopes.has(scopeFor(permission))) return false;
  if (roleAllows(actor.role, permission)) return true;
  if (actor.projects === 'all') return false;
  for (const role of actor.projects.values()) if (roleAllows(role, permission)) return true;
  return false;
}

/** The actor's effective role on one project, or undefined when it has no grant. */
export function projectRole(actor: Actor, projectId: string): Role | undefined {
  if (actor.projects === 'all') return actor.role;
  return actor.projects.get(projectId);
}

export function actorCanOnProject(actor: Actor, projectId: string, permission: Permission): boolean {
  if (actor.scopes && !actor.scopes.has(scopeFor(permission))) return false;
  const role = projectRole(actor, projectId);
  return role !== undefined && roleAllows(role, permission);
}

/** The project ids the actor may see, or 'all'. */
export function visibleProjects(actor: Actor): 'all' | string[] {
  return actor.projects === 'all' ? 'all' : [...actor.projects.keys()];
}
