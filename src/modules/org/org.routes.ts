import type { AuthMode } from '../../platform/config.js';
import { defineRoute } from '../../platform/http/route.js';
import { presentAudit, presentMe, presentMember, presentSettings } from './org.presenter.js';
import {
  AuditListOutput,
  AuditQuery,
  CreateMemberInput,
  GrantsOutput,
  ListMembersQuery,
  MeOutput,
  MemberListOutput,
  MemberOutput,
  MemberPathParams,
  PutGrantsInput,
  SettingsOutput,
  UpdateMemberInput,
  UpdateSettingsInput,
} from './org.schemas.js';
import type { OrgServices } from './org.services.js';

export function orgRoutes(org: OrgServices, authMode: AuthMode) {
  return [
    defineRoute({
      method: 'GET',
      url: '/api/org/me',
      summary: 'Who the caller is: subject, organization role, project grants, token scopes',
      tags: ['org'],
      rule: { permission: 'context.read' },
      response: MeOutput,
      handler: async ({ ctx }) => presentMe(org.members.me(ctx)),
    }),
    defineRoute({
      method: 'GET',
      url: '/api/org/settings',
      summary: 'Organization settings, entitlement limits and member access roles',
      tags: ['org'],
      rule: { permission: 'context.read' },
      response: SettingsOutput,
      handler: async ({ ctx }) => presentSettings(await org.settings.get(ctx), authMode),
    }),
    defineRoute({
      method: 'PUT',
      url: '/api/org/settings',
      summary: 'Change organization settings and limits (owner)',
      tags: ['org'],
      rule: { permission: 'owner' },
      body: UpdateSettingsInput,
      response: SettingsOutput,
      handler: async ({ ctx, body }) => presentSettings(await org.settings.update(ctx, body), authMode),
    }),
    defineRoute({
      method: 'GET',
      url: '/api/org/members',
      summary: 'List organization members with their roles and grants',
      tags: ['org'],
      rule: { permission: 'admin' },
      query: ListMembersQuery,
      response: MemberListOutput,
      handler: async ({ ctx, query }) => {
        const page = await org.members.list(ctx, query);
        return { members: page.items.map(presentMember), next_cursor: page.next_cursor };
      },
    }),
    defineRoute({
      method: 'POST',
      url: '/api/org/members',
      summary: 'Add a member (subject = the JWT sub) with a role and optional project grants',
      tags: ['org'],
      rule: { permission: 'admin' },
      body: CreateMemberInput,
      response: MemberOutput,
      successStatus: 201,
      handler: async ({ ctx, body }) => presentMember(await org.members.create(ctx, body)),
    }),
    defineRoute({
      method: 'GET',
      url: '/api/org/members/:subject',
      summary: 'Read one member',
      tags: ['org'],
      rule: { permission: 'admin' },
      params: MemberPathParams,
      response: MemberOutput,
      handler: async ({ ctx, params }) => presentMember(await org.members.get(ctx, params.subject)),
    }),
    defineRoute({
      method: 'PATCH',
      url: '/api/org/members/:subject',
      summary: "Change a member's role or email (owner role changes need an owner)",
      tags: ['org'],
      rule: { permission: 'admin' },
      params: MemberPathParams,
      body: UpdateMemberInput,
      response: MemberOutput,
      handler: async ({ ctx, params, body }) => presentMember(await org.members.update(ctx, params.subject, body)),
    }),
    defineRoute({
      method: 'DELETE',
      url: '/api/org/members/:subject',
      summary: 'Remove a member and its grants',
      tags: ['org'],
      rule: { permission: 'admin' },
      params: MemberPathParams,
      successStatus: 204,
      handler: async ({ ctx, params }) => {
        await org.members.remove(ctx, params.subject);
        return undefined;
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/api/org/members/:subject/grants',
      summary: "A member's project grants",
      tags: ['org'],
      rule: { permission: 'admin' },
      params: MemberPathParams,
      response: GrantsOutput,
      handler: async ({ ctx, params }) => ({
        subject: params.subject,
        grants: await org.members.grants(ctx, params.subject),
      }),
    }),
    defineRoute({
      method: 'PUT',
      url: '/api/org/members/:subject/grants',
      summary: "Replace a member's project grants",
      tags: ['org'],
      rule: { permission: 'admin' },
      params: MemberPathParams,
      body: PutGrantsInput,
      response: GrantsOutput,
      handler: async ({ ctx, params, body }) => ({
        subject: params.subject,
        grants: await org.members.replaceGrants(ctx, params.subject, body.grants),
      }),
    }),
    defineRoute({
      method: 'GET',
      url: '/api/org/audit',
      summary: 'The audit log of every write, newest first',
      tags: ['org'],
      rule: { permission: 'admin' },
      query: AuditQuery,
      response: AuditListOutput,
      handler: async ({ ctx, query }) => {
        const page = await org.audit.list(ctx, query);
        return { entries: page.items.map(presentAudit), next_cursor: page.next_cursor };
      },
    }),
  ];
}
