import { z } from 'zod';
import { rawJsonOf } from '../../platform/http/body-parsing.js';
import { defineRoute } from '../../platform/http/route.js';
import { presentConnection } from './credentials.presenter.js';
import {
  ConnectionListOutput,
  ConnectionOutput,
  ListConnectionsQuery,
  UpsertConnectionInput,
  ConnectLinkInput,
  ConnectLinkOutput,
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
    defineRoute({
      method: 'POST',
      url: '/api/credentials/connect-link',
      summary: 'A Nango connect link (POST /connect/sessions) for a connection whose credentials Nango holds',
      tags: ['credentials'],
      rule: { permission: 'admin' },
      body: ConnectLinkInput,
      response: ConnectLinkOutput,
      handler: async ({ ctx, body }) => credentials.connectLink(ctx, body.project_id, body.connection_ref_id),
    }),
    defineRoute({
      method: 'POST',
      url: '/api/connectors/nango/webhook',
      summary:
        "Nango's auth webhooks, signed with X-Nango-Hmac-Sha256 (public: the signature is the authentication; " +
        'anything unsigned is a 401 and changes nothing)',
      tags: ['credentials'],
      // Nango holds no token of ours: the HMAC over the raw body with the webhook signing key is the check.
      rule: { public: true },
      keepsRawJson: true,
      bodyLimit: 256 * 1024,
      response: z.object({ received: z.literal(true), updated: z.number() }),
      handler: async ({ request }) => {
        const signature = request.headers['x-nango-hmac-sha256'];
        const result = await credentials.nangoWebhook(
          rawJsonOf(request) ?? '',
          Array.isArray(signature) ? signature[0] : signature,
        );
        return { received: true as const, ...result };
      },
    }),
  ];
}
