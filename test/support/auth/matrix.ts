import type { RegisteredRoute } from '../../../src/platform/http/app.js';

export type Role = 'viewer' | 'editor' | 'admin' | 'owner';
export type Permission = 'context.read' | 'data.read' | 'context.write' | 'context.review' | 'admin' | 'owner';

/** The role table (which permissions each role holds), written out independently of the code under test. */
const ROLE_PERMISSIONS: Record<Role, Permission[]> = {
  viewer: ['context.read', 'data.read'],
  editor: ['context.read', 'data.read', 'context.write'],
  admin: ['context.read', 'data.read', 'context.write', 'context.review', 'admin'],
  owner: ['context.read', 'data.read', 'context.write', 'context.review', 'admin', 'owner'],
};

export function allows(role: Role | undefined, permission: Permission): boolean {
  return role !== undefined && ROLE_PERMISSIONS[role].includes(permission);
}

export interface Identity {
  name: string;
  sub: string;
  claims: Record<string, unknown>;
  orgRole: Role;
  /** The effective role on the matrix project, undefined = no grant. */
  projectRole: Role | undefined;
  member?: { role: Role; grants: { project_id: string; role: Role }[] };
}

export const PROBLEM_KEYS = new Set([
  'type',
  'title',
  'status',
  'detail',
  'code',
  'request_id',
  'reason',
  'required_scope',
  'retry_after_seconds',
]);

/** Routes that are MCP transports: the matrix sends them bad credentials only (a valid GET /sse never ends). */
export const TRANSPORT_URLS = new Set(['/mcp', '/sse', '/messages']);

/**
 * Public routes that authenticate a request by its own signature (a webhook from a service that
 * holds no token of ours): the gate lets everything through, and the route itself answers an
 * unsigned request 401 with this code, whatever Authorization header it carries.
 */
export const SIGNED_WEBHOOK_URLS = new Map([['/api/connectors/nango/webhook', 'webhook_signature_invalid']]);

export function isProjectScoped(url: string): boolean {
  return /:(project_id|projectId)\b/.test(url) || /^\/api\/projects\/:id\b/.test(url);
}

export function fillPath(url: string, projectId: string): string {
  return url.replace(/:([A-Za-z_]+)/g, (_m, name: string) =>
    /project/i.test(name) || (name === 'id' && url.startsWith('/api/projects/')) ? projectId : 'matrix-x',
  );
}

/** The expected outcome for a valid identity on a route, from the route's declared rule only. */
export function expectedRest(route: RegisteredRoute, id: Identity): { allowed: boolean; code?: string } {
  if ('public' in route.rule) return { allowed: true };
  const permission = route.rule.permission as Permission;
  const gate = allows(id.orgRole, permission) || allows(id.projectRole, permission);
  if (!gate) return { allowed: false, code: 'role_forbidden' };
  if (isProjectScoped(route.url)) {
    if (id.projectRole === undefined) return { allowed: false, code: 'project_forbidden' };
    if (!allows(id.projectRole, permission)) return { allowed: false, code: 'role_forbidden' };
  }
  return { allowed: true };
}

export function uniqueRoutes(routes: RegisteredRoute[]): RegisteredRoute[] {
  return routes.filter((r) => r.method !== 'HEAD');
}

/** The stable code of an MCP isError result (our `_meta` first, then the text prefix). */
export function resultCode(result: {
  isError?: boolean;
  content?: unknown;
  _meta?: Record<string, unknown>;
}): string | undefined {
  if (!result.isError) return undefined;
  const meta = result._meta?.['service.error'] as { code?: string } | undefined;
  if (meta?.code) return meta.code;
  const text =
    (result.content as { type: string; text?: string }[] | undefined)?.find((c) => c.type === 'text')?.text ?? '';
  return /^([a-z_]+):/.exec(text)?.[1] ?? 'unstructured_error';
}
