import { z } from 'zod';
import { ROLES } from '../../platform/auth/permissions.js';
import { PageQuery } from '../../platform/pagination.js';
import { CurrencyCode, ProjectId, TimeZone } from '../projects/index.js';

/** Entitlement limits and their defaults; org_settings.limits overrides any of them. */
export const LIMIT_DEFAULTS = {
  projects: 50,
  datastreams_per_project: 100,
  members: 200,
  context_objects_per_project: 200_000,
  api_requests_per_minute: 6_000,
} as const;
export type LimitName = keyof typeof LIMIT_DEFAULTS;
export type Limits = Record<LimitName, number>;
export const LIMIT_NAMES = Object.keys(LIMIT_DEFAULTS) as LimitName[];

const LimitValue = z.number().int().min(1).max(100_000_000);

export const LimitsPatch = z
  .object(
    Object.fromEntries(LIMIT_NAMES.map((n) => [n, LimitValue.optional()])) as Record<
      LimitName,
      z.ZodOptional<typeof LimitValue>
    >,
  )
  .strict();

export const UpdateSettingsInput = z
  .object({
    name: z.string().trim().min(1).max(200).optional(),
    default_reporting_currency: CurrencyCode.optional(),
    default_timezone: TimeZone.optional(),
    limits: LimitsPatch.optional(),
  })
  .strict();
export type UpdateSettingsInput = z.infer<typeof UpdateSettingsInput>;

export const RoleName = z.enum(ROLES);
/** A project grant carries at most admin: owner is an organization role only. */
export const GrantRole = z.enum(['viewer', 'editor', 'admin']);

/** JWT `sub` values: opaque, e.g. "auth0|5f1c…"; printable, no whitespace at the ends. */
export const Subject = z
  .string()
  .min(1)
  .max(255)
  .regex(/^[^\s\p{Cc}](?:[^\p{Cc}]*[^\s\p{Cc}])?$/u, 'must be printable, without leading or trailing spaces')
  .describe('The identity subject (the JWT sub claim).');

export const GrantInput = z.object({ project_id: ProjectId, role: GrantRole.default('viewer') }).strict();

export const GrantsList = z
  .array(GrantInput)
  .max(1000)
  .refine((grants) => new Set(grants.map((g) => g.project_id)).size === grants.length, 'each project may appear once');

export const CreateMemberInput = z
  .object({
    subject: Subject,
    email: z.string().email().max(320).optional(),
    role: RoleName.default('viewer'),
    grants: GrantsList.optional(),
  })
  .strict();
export type CreateMemberInput = z.infer<typeof CreateMemberInput>;

export const UpdateMemberInput = z
  .object({ email: z.string().email().max(320).nullable().optional(), role: RoleName.optional() })
  .strict();
export type UpdateMemberInput = z.infer<typeof UpdateMemberInput>;

export const PutGrantsInput = z.object({ grants: GrantsList }).strict();

export const MemberPathParams = z.object({ subject: Subject });
export const ListMembersQuery = PageQuery.extend({ role: RoleName.optional() });

export const AuditQuery = PageQuery.extend({
  action: z.string().max(100).optional().describe('Only entries of this action, e.g. project.create.'),
  actor: z.string().max(255).optional().describe('Only entries by this subject.'),
  project_id: ProjectId.optional(),
});

export const GrantOutput = z.object({ project_id: z.string(), role: GrantRole });
export const MemberOutput = z.object({
  subject: z.string(),
  email: z.string().nullable(),
  role: RoleName,
  grants: z.array(GrantOutput),
  created_at: z.string(),
  created_by: z.string(),
  updated_at: z.string(),
});
export type MemberOutput = z.infer<typeof MemberOutput>;
export const MemberListOutput = z.object({ members: z.array(MemberOutput), next_cursor: z.string().nullable() });
export const GrantsOutput = z.object({ subject: z.string(), grants: z.array(GrantOutput) });

export const MeOutput = z.object({
  subject: z.string(),
  email: z.string().nullable(),
  kind: z.enum(['operator', 'member', 'token']),
  role: RoleName.describe('Organization role.'),
  all_projects: z.boolean().describe('True when the role acts on every project (operator, admin, owner).'),
  grants: z.array(z.object({ project_id: z.string(), role: RoleName })),
  scopes: z.array(z.string()).nullable().describe("The token's scopes when it narrowed them; null otherwise."),
  permissions: z.array(z.string()).describe('What the role and scopes allow at all, on some project.'),
});
export type MeOutput = z.infer<typeof MeOutput>;

export const SettingsOutput = z.object({
  id: z.string(),
  name: z.string(),
  default_reporting_currency: z.string(),
  default_timezone: z.string(),
  limits: z.object(Object.fromEntries(LIMIT_NAMES.map((n) => [n, z.number()])) as Record<LimitName, z.ZodNumber>),
  roles: z.array(z.object({ role: RoleName, permissions: z.array(z.string()), description: z.string() })),
  auth_mode: z.enum(['disabled', 'static', 'oauth']),
  updated_at: z.string(),
});
export type SettingsOutput = z.infer<typeof SettingsOutput>;

export const AuditEntryOutput = z.object({
  id: z.number(),
  at: z.string(),
  actor: z.object({ subject: z.string(), kind: z.string() }),
  request_id: z.string(),
  action: z.string(),
  target: z.string(),
  project_id: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
});
export const AuditListOutput = z.object({ entries: z.array(AuditEntryOutput), next_cursor: z.string().nullable() });
