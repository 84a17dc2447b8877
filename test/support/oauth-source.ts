import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * An OAuth2 API on loopback that behaves as real ones do under load and over time: a token
 * endpoint (RFC 6749 §4.4 and §6) that can rotate refresh tokens (the old one is then
 * `invalid_grant`), takes client credentials in a Basic header or the form body, and issues a new
 * access token each time; a paged records API that can revoke every token after a given page, and
 * answer a page with 429 and Retry-After. It counts what it receives, so tests assert on the
 * source's own numbers.
 */
export interface OAuthSourceOptions {
  pages: number;
  perPage?: number;
  rotate?: boolean;
  tokenAuth?: 'basic' | 'body';
  expiresIn?: number;
  /** After this page is served, every access token issued so far is revoked (once). */
  revokeAfterPage?: number;
  /** These pages answer 429 this many times before they answer. */
  rateLimit?: { page: number; times: number; retryAfter: string };
  /** These pages drop the connection without an answer this many times (a reset). */
  reset?: { page: number; times: number };
}

export interface OAuthSource {
  url: string;
  client: { client_id: string; client_secret: string };
  firstRefreshToken: string;
  currentRefreshToken(): string;
  tokenRequests: { grant_type: string; refresh_token: string | null; outcome: string }[];
  pageRequests: { page: number; status: number }[];
  close(): Promise<void>;
}

export function sourceRecord(page: number, i: number) {
  // Inside the window a run of 2026-05-18 reads (its last 7 days).
  const day = `2026-05-${12 + ((page + i) % 6)}`;
  return { day, campaign: `p${page}-r${i}`, spend: page * 10 + i };
}

export async function startOAuthSource(options: OAuthSourceOptions): Promise<OAuthSource> {
  const perPage = options.perPage ?? 3;
  const client = { client_id: 'oauth-client', client_secret: 'oauth-client-secret-value' };
  let refresh = 'refresh-0';
  let issued = 0;
  const valid = new Set<string>();
  let revoked = false;
  const limited = new Map<number, number>();
  const resets = new Map<number, number>();
  const tokenRequests: OAuthSource['tokenRequests'] = [];
  const pageRequests: OAuthSource['pageRequests'] = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const json = (status: number, value: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'content-type': 'application/json', ...headers });
        res.end(JSON.stringify(value));
      };
      if (url.pathname === '/oauth/token' && req.method === 'POST') {
        const form = new URLSearchParams(body);
        const entry = {
          grant_type: form.get('grant_type') ?? '',
          refresh_token: form.get('refresh_token'),
          outcome: '',
        };
        tokenRequests.push(entry);
        const basic = `Basic ${Buffer.from(`${client.client_id}:${client.client_secret}`).toString('base64')}`;
        const authorized =
          options.tokenAuth === 'body'
            ? form.get('client_id') === client.client_id &&
              form.get('client_secret') === client.client_secret &&
              !req.headers.authorization
            : req.headers.authorization === basic;
        if (!authorized) {
          entry.outcome = 'invalid_client';
          return json(401, { error: 'invalid_client' });
        }
        if (entry.grant_type === 'refresh_token' && entry.refresh_token !== refresh) {
          entry.outcome = 'invalid_grant';
          return json(400, { error: 'invalid_grant', error_description: 'refresh token already used or revoked' });
        }
        issued += 1;
        const access = `access-${issued}`;
        valid.add(access);
        const answer: Record<string, unknown> = {
          access_token: access,
          token_type: 'Bearer',
          expires_in: options.expiresIn ?? 3600,
        };
        if (options.rotate && entry.grant_type === 'refresh_token') {
          refresh = `refresh-${issued}`;
          answer.refresh_token = refresh;
        }
        entry.outcome = 'issued';
        return json(200, answer);
      }
      if (url.pathname === '/v1/records') {
        const page = Number(url.searchParams.get('page') ?? 1);
        const token = (req.headers.authorization ?? '').replace(/^Bearer /, '');
        if (!valid.has(token)) {
          pageRequests.push({ page, status: 401 });
          return json(401, { error: 'invalid_token' });
        }
        const rs = options.reset;
        if (rs && rs.page === page && (resets.get(page) ?? 0) < rs.times) {
          resets.set(page, (resets.get(page) ?? 0) + 1);
          pageRequests.push({ page, status: 0 });
          req.socket.resetAndDestroy();
          return;
        }
        const rl = options.rateLimit;
        if (rl && rl.page === page && (limited.get(page) ?? 0) < rl.times) {
          limited.set(page, (limited.get(page) ?? 0) + 1);
          pageRequests.push({ page, status: 429 });
          return json(429, { error: 'rate_limited' }, { 'retry-after': rl.retryAfter });
        }
        pageRequests.push({ page, status: 200 });
        const records = page <= options.pages ? Array.from({ length: perPage }, (_, i) => sourceRecord(page, i)) : [];
        json(200, { data: records });
        if (options.revokeAfterPage === page && !revoked) {
          revoked = true;
          valid.clear();
        }
        return;
      }
      json(404, { error: 'not found' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    client,
    firstRefreshToken: 'refresh-0',
    currentRefreshToken: () => refresh,
    tokenRequests,
    pageRequests,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
