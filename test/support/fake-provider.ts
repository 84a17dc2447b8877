import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A fake ad platform on loopback: an OAuth2 token endpoint (client-credentials and refresh-token
 * grants) and a records API with cursor pagination and a date window, both as a real provider
 * would answer. Tests point connections at it; nothing of our own is mocked.
 */
export interface FakeProvider {
  url: string;
  tokenRequests: { grant_type: string; authorization: string | undefined }[];
  apiRequests: URLSearchParams[];
  close(): Promise<void>;
}

export const CLIENT = { client_id: 'ch-client', client_secret: 's3cr3t-client-value' };
export const GOOD_REFRESH = 'refresh-good-0123456789';
const ACCESS = 'access-token-abc';

/** Deterministic rows: 3 campaigns per day, two currencies. */
export function fakeRows(from: string, to: string) {
  const rows = [];
  for (
    let d = new Date(`${from}T00:00:00Z`);
    d <= new Date(`${to}T00:00:00Z`);
    d = new Date(d.getTime() + 86_400_000)
  ) {
    const date = d.toISOString().slice(0, 10);
    for (let c = 1; c <= 3; c += 1) {
      rows.push({
        day: date,
        campaign: { id: `fk-${c}`, name: `Fake ${c}` },
        network: c === 3 ? 'social' : 'search',
        cur: c === 2 ? 'EUR' : 'USD',
        metrics: { cost: 10 * c, imps: 1000 * c, clicks: 50 * c, conv: c, value: 25 * c },
      });
    }
  }
  return rows;
}

export async function startFakeProvider(options: { pageSize?: number } = {}): Promise<FakeProvider> {
  const pageSize = options.pageSize ?? 4;
  const tokenRequests: FakeProvider['tokenRequests'] = [];
  const apiRequests: URLSearchParams[] = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const json = (status: number, value: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(value));
      };
      // Never answers: the caller's own time limit must end the wait.
      if (url.pathname === '/oauth/slow') return;
      if (url.pathname === '/oauth/token' && req.method === 'POST') {
        const form = new URLSearchParams(body);
        tokenRequests.push({ grant_type: form.get('grant_type') ?? '', authorization: req.headers.authorization });
        const expected = `Basic ${Buffer.from(`${CLIENT.client_id}:${CLIENT.client_secret}`).toString('base64')}`;
        if (req.headers.authorization !== expected) return json(401, { error: 'invalid_client' });
        if (form.get('grant_type') === 'refresh_token' && form.get('refresh_token') !== GOOD_REFRESH)
          return json(400, { error: 'invalid_grant', error_description: 'refresh token expired' });
        return json(200, { access_token: ACCESS, token_type: 'Bearer', expires_in: 3600 });
      }
      if (url.pathname === '/v1/stats') {
        apiRequests.push(url.searchParams);
        if (req.headers.authorization !== `Bearer ${ACCESS}`) return json(401, { error: 'unauthorized' });
        const from = url.searchParams.get('since');
        const to = url.searchParams.get('until');
        if (!from || !to) return json(400, { error: 'since and until are required' });
        const all = fakeRows(from, to);
        const offset = Number(url.searchParams.get('after') ?? 0);
        const page = all.slice(offset, offset + pageSize);
        return json(200, {
          result: { rows: page },
          paging: { next: offset + pageSize < all.length ? String(offset + pageSize) : null },
        });
      }
      json(404, { error: 'not found' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    tokenRequests,
    apiRequests,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
