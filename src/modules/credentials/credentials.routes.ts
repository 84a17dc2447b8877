import { defineRoute } from '../../platform/http/route.js';
import { presentConnection } from './credentials.presenter.js';
import {
  ConnectionListOutput,
  ConnectionOutput,
  ListConnectionsQuery,
  UpsertConnectionInput,
  VerifyConnectionInput,
  VerifyOutput,
} from './credentials.schemas.js';
import type { CredentialsService } from './credentials.service.js';

export function credentialRoutes(credentials: CredentialsService) {
  return [
    defineRoute({
      method: 'GET',
      url: '/api/credentials/list',
      summary:
        "List a project's connections by connection_ref_id, paginated: provider, status, last verification, " +
        'integration link (never secrets)',
      tags: ['credentials'],
      rule: { permission: 'data.read' },
      query: ListConnectionsQuery,
      response: ConnectionListOutput,
      handler: async ({ ctx, query }) => {
        const page = await credentials.list(ctx, query.project_id, query);
        return {
          connections: page.items.map((row) =>
            presentConnection(row, credentials.integrationUrl(row.connection_ref_id)),
          ),
          next_cursor: page.next_cursor,
        };
      },
    }),
    defineRoute({
      method: 'POST',
      url: '/api/credentials',
      summary: 'Create or rotate a connection (secrets go in, never out)',
      tags: ['credentials'],
      rule: { permission: 'admin' },
      body: UpsertConnectionInput,
      response: ConnectionOutput,
      handler: async ({ ctx, body }) => {
        const row = await credentials.upsert(ctx, body);
        return presentConnection(row, credentials.integrationUrl(row.connection_ref_id));
      },
    }),
    defineRoute({
      method: 'POST',
      url: '/api/credentials/verify',
      summary: 'Run a token check and a connectivity test now; a failed check is still a 200 answer describing it',
      tags: ['credentials'],
      rule: { permission: 'admin' },
      body: VerifyConnectionInput,
      response: VerifyOutput,
      handler: async ({ ctx, body }) => credentials.verify(ctx, body),
    }),
  ];
}
