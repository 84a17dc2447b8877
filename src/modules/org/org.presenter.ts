import { type Actor, actorHas } from '../../platform/auth/actor.js';
import { PERMISSIONS, ROLES, roleAllows, type Role } from '../../platform/auth/permissions.js';
import type { AuthMode } from '../../platform/config.js';
import type { MemberWithGrants } from './members.service.js';
import type { AuditRow, SettingsRow } from './org.repo.js';
import type { Limits, MemberOutput, MeOutput, SettingsOutput } from './org.schemas.js';

const ROLE_DESCRIPTIONS: Record<Role, string> = {
  viewer: 'Reads context and data of the projects it is granted.',
  editor: 'Also writes context (skills, knowledge, links, events) in its projects.',
  admin: 'Also manages datastreams, credentials, projects and members; acts on every project.',
  owner: 'Also changes organization settings and limits; acts on every project.',
};

export function presentSettings(row: SettingsRow & { effective: Limits }, authMode: AuthMode): SettingsOutput {
  return {
    id: row.id,
    name: row.name,
    default_reporting_currency: row.default_reporting_currency.trim(),
    default_timezone: row.default_timezone,
    limits: row.effective,
    roles: ROLES.map((role) => ({
      role,
      permissions: PERMISSIONS.filter((p) => roleAllows(role, p)),
      description: ROLE_DESCRIPTIONS[role],
    })),
    auth_mode: authMode,
    updated_at: new Date(row.updated_at).toISOString(),
  };
}

export function presentMember(row: MemberWithGrants): MemberOutput {
  return {
    subject: row.subject,
    email: row.email,
    role: row.role,
    grants: row.grants,
    created_at: new Date(row.created_at).toISOString(),
    created_by: row.created_by,
    updated_at: new Date(row.updated_at).toISOString(),
  };
}

export function presentAudit(row: AuditRow) {
  return {
    id: Number(row.id),
    at: new Date(row.at).toISOString(),
    actor: { subject: row.actor_subject, kind: row.actor_kind },
    request_id: row.request_id,
    action: row.action,
    target: row.target,
    project_id: row.project_id,
    details: row.details,
  };
}

/** The caller as the service sees it (GET /api/org/me): who, the role, the grants, the scopes. */
export function presentMe(actor: Actor): MeOutput {
  return {
    subject: actor.subject,
    email: actor.email ?? null,
    kind: actor.kind,
    role: actor.role,
    all_projects: actor.projects === 'all',
    grants: actor.projects === 'all' ? [] : [...actor.projects].map(([project_id, role]) => ({ project_id, role })),
    scopes: actor.scopes ? [...actor.scopes] : null,
    permissions: PERMISSIONS.filter((p) => actorHas(actor, p)),
  };
}
