import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Nango's backend API on loopback, as its public reference (docs/spec.yaml, the server's
 * integration tests) documents it: `GET /connections/{connectionId}?provider_config_key=…
 * [&force_refresh=true]` with `Authorization: Bearer <secret key>` answers a ConnectionFull whose
 * `credentials` hold the OAuth2 access token (401 `unknown_account` for a wrong key, 404
 * `not_found` for an unknown connection, 424 `invalid_credentials` once refreshes are exhausted);
 * `POST /connect/sessions` answers 201 `{ data: { token, connect_link, expires_at } }`. Beside it,
 * the API behind the connection: records that only Nango's current tokens may read.
 */
export interface NangoServer {
  url: string;
  secretKey: string;
  /** Connections Nango holds, by `${provider_config_key}/${connection_id}`. */
  connections: Map<string, { exhausted: boolean }>;
  requests: { path: string; authorization: string | undefined; forceRefresh: boolean; status: number }[];
  sessions: unknown[];
  pageRequests: { page: number; status: number }[];
  /** Revokes every token Nango issued so far, after the next page with this number is served. */
  revokeAfterPage(page: number): void;
  /** Signs a webhook body the way Nango does (hex HMAC-SHA256 of the raw body). */
  sign(body: string, key?: string): string;
  close(): Promise<void>;
}

export async function startNangoServer(options: {
  pages: number;
  perPage?: number;
  /** What Nango says the access token's expiry is (its `credentials.expires_at`). */
  expiresAt?: string;
}): Promise<NangoServer> {
  const secretKey = 'nango-secret-key-0f3c9a7e-not-for-logs';
  const perPage = options.perPage ?? 2;
  const connections: NangoServer['connections'] = new Map();
  const requests: NangoServer['requests'] = [];
  const sessions: unknown[] = [];
  const pageRequests: NangoServer['pageRequests'] = [];
  const valid = new Set<string>();
  let issued = 0;
  let revokeAfter: number | undefined;
  const current = new Map<string, string>();
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const json = (status: number, value: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(value));
      };
      const authorized = req.headers.authorization === `Bearer ${secretKey}`;
      const connection = url.pathname.match(/^\/connections\/([^/]+)$/);
      if (connection && req.method === 'GET') {
        const entry = {
          path: url.pathname,
          authorization: req.headers.authorization,
          forceRefresh: url.searchParams.get('force_refresh') === 'true',
          status: 0,
        };
        requests.push(entry);
        const reply = (status: number, value: unknown) => {
          entry.status = status;
          json(status, value);
        };
        if (!authorized)
          return reply(401, {
            error: {
              code: 'unknown_account',
              message: 'Authentication failed. The provided authorization header does not match any account.',
            },
          });
        const key = url.searchParams.get('provider_config_key');
        if (!key) return reply(400, { error: { code: 'invalid_query_params' } });
        const id = decodeURIComponent(connection[1]!);
        const held = connections.get(`${key}/${id}`);
        if (!held) return reply(404, { error: { code: 'not_found', message: 'Failed to find connection' } });
        if (held.exhausted)
          return reply(424, {
            error: {
              code: 'invalid_credentials',
              message: 'The refresh limit has been reached for this connection.',
              payload: { connection: { connection_id: id, credentials: {} } },
            },
          });
        let token = current.get(`${key}/${id}`);
        if (!token || entry.forceRefresh) {
          issued += 1;
          token = `nango-access-${issued}`;
          current.set(`${key}/${id}`, token);
          valid.add(token);
        }
        const now = new Date().toISOString();
        return reply(200, {
          id: 1,
          connection_id: id,
          provider_config_key: key,
          provider: 'google-ads',
          errors: [],
          end_user: null,
          metadata: null,
          connection_config: {},
          tags: {},
          created_at: now,
          updated_at: now,
          last_fetched_at: now,
          credentials: {
            type: 'OAUTH2',
            access_token: token,
            expires_at: options.expiresAt ?? '2026-05-18T10:00:00.000Z',
            raw: { access_token: token, expires_in: 3600 },
          },
        });
      }
      if (url.pathname === '/connect/sessions' && req.method === 'POST') {
        if (!authorized) return json(401, { error: { code: 'unknown_account' } });
        sessions.push(JSON.parse(body));
        return json(201, {
          data: {
            token: 'nango_connect_session_abc',
            connect_link: 'https://connect.nango.dev?session_token=nango_connect_session_abc',
            expires_at: '2026-05-18T09:30:00.000Z',
          },
        });
      }
      if (url.pathname === '/v1/records') {
        const page = Number(url.searchParams.get('page') ?? 1);
        const token = (req.headers.authorization ?? '').replace(/^Bearer /, '');
        if (!valid.has(token)) {
          pageRequests.push({ page, status: 401 });
          return json(401, { error: 'invalid_token' });
        }
        pageRequests.push({ page, status: 200 });
        const records =
          page <= options.pages
            ? Array.from({ length: perPage }, (_, i) => ({
                day: `2026-05-${12 + ((page + i) % 6)}`,
                campaign: `n${page}-${i}`,
                spend: page + i,
              }))
            : [];
        json(200, { data: records });
        if (revokeAfter === page) {
          revokeAfter = undefined;
          valid.clear();
        }
        return;
      }
      json(404, { error: { code: 'not_found' } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    secretKey,
    connections,
    requests,
    sessions,
    pageRequests,
    revokeAfterPage: (page) => {
      revokeAfter = page;
    },
    sign: (raw, key = secretKey) => createHmac('sha256', key).update(raw).digest('hex'),
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
