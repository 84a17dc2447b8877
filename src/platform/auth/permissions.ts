/**
 * Roles and the permissions they carry. Every REST route and MCP tool names one permission; the
 * role check and the project-grant check both derive from this table and nowhere else.
 */
export const ROLES = ['viewer', 'editor', 'admin', 'owner'] as const;
export type Role = (typeof ROLES)[number];

/** `context.review`: approving or rejecting proposals, and publishing directly under `review`. */
export const PERMISSIONS = ['context.read', 'data.read', 'context.write', 'context.review', 'admin', 'owner'] as const;
export type Permission = (typeof PERMISSIONS)[number];

const ROLE_PERMISSIONS: Record<Role, ReadonlySet<Permission>> = {
  viewer: new Set(['context.read', 'data.read']),
  editor: new Set(['context.read', 'data.read', 'context.write']),
  admin: new Set(['context.read', 'data.read', 'context.write', 'context.review', 'admin']),
  owner: new Set(['context.read', 'data.read', 'context.write', 'context.review', 'admin', 'owner']),
};

export function roleAllows(role: Role, permission: Permission): boolean {
  return ROLE_PERMISSIONS[role].has(permission);
}

export function roleRank(role: Role): number {
  return ROLES.indexOf(role);
}

export function higherRole(a: Role, b: Role): Role {
  return roleRank(a) >= roleRank(b) ? a : b;
}

/** OAuth scopes that can narrow a token: the permission each one unlocks. */
export const SCOPES = ['context.read', 'context.write', 'data.read', 'admin'] as const;
export type Scope = (typeof SCOPES)[number];

/** The scope a permission needs when a token carries a `scope` claim. */
export function scopeFor(permission: Permission): Scope {
  // Reviewing is an administrator's act: a token narrowed to context.write may propose, not approve.
  return permission === 'owner' || permission === 'context.review' ? 'admin' : permission;
}
