import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type CampaignDay, campaignDays } from './campaign-days.js';

/**
 * A loopback Google Ads API following its REST reference: the OAuth refresh-token grant (client
 * credentials in the body), and `googleAds:searchStream` answering a JSON array of
 * SearchGoogleAdsStreamResponse batches in camelCase, int64 metrics as strings and zero metrics
 * omitted (proto3). It checks the developer-token header, asks for login-customer-id when the
 * account is reached through a manager, and answers RESOURCE_EXHAUSTED with a RetryInfo.
 */
export interface GoogleAdsServer {
  url: string;
  served: number;
  /** How many times each date was asked for. */
  datesAsked: Map<string, number>;
  reports: number;
  /** Answer 429 RESOURCE_EXHAUSTED (retryDelay 1s) to this many of the next report requests. */
  quotaOnce: number;
  refreshRevoked: boolean;
  data: { from: string; to: string; campaigns: number; version: (date: string) => number };
  close(): Promise<void>;
}

export const ADS = {
  customer: '1234567890',
  manager: '9876543210',
  developerToken: 'dev-token-0123456789',
  clientId: 'ads-client',
  clientSecret: 'ads-secret',
  refreshToken: 'ads-refresh',
};

const failure = (
  code: number,
  status: string,
  errorCode: Record<string, string>,
  message: string,
  extra: unknown[] = [],
) => ({
  error: {
    code,
    status,
    message: 'Request contains an invalid argument.',
    details: [
      {
        '@type': 'type.googleapis.com/google.ads.googleads.v26.errors.GoogleAdsFailure',
        requestId: randomUUID(),
        errors: [{ errorCode, message }],
      },
      ...extra,
    ],
  },
});

function row(r: CampaignDay) {
  const metrics: Record<string, unknown> = {};
  if (r.cost_micros) metrics.costMicros = String(r.cost_micros);
  if (r.impressions) metrics.impressions = String(r.impressions);
  if (r.clicks) metrics.clicks = String(r.clicks);
  if (r.conversions) metrics.conversions = r.conversions;
  if (r.revenue) metrics.conversionsValue = r.revenue;
  return {
    customer: { resourceName: `customers/${ADS.customer}`, currencyCode: r.currency },
    campaign: {
      resourceName: `customers/${ADS.customer}/campaigns/${r.campaign_id.slice(1)}`,
      id: r.campaign_id,
      name: r.campaign_name,
      advertisingChannelType: r.channel,
    },
    segments: { date: r.date },
    metrics,
  };
}

export async function startGoogleAdsServer(): Promise<GoogleAdsServer> {
  const tokens = new Set<string>();
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const json = (status: number, value: unknown) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/token') {
      const form = new URLSearchParams(body);
      if (form.get('client_id') !== ADS.clientId || form.get('client_secret') !== ADS.clientSecret)
        return json(401, { error: 'invalid_client' });
      if (
        form.get('grant_type') !== 'refresh_token' ||
        form.get('refresh_token') !== ADS.refreshToken ||
        state.refreshRevoked
      )
        return json(400, { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' });
      const token = `ya29.${randomUUID()}`;
      tokens.add(token);
      return json(200, { access_token: token, expires_in: 3599, scope: form.get('scope'), token_type: 'Bearer' });
    }
    const match = /^\/v26\/customers\/(\d{10})\/googleAds:searchStream$/.exec(url.pathname);
    if (req.method !== 'POST' || !match)
      return json(404, { error: { code: 404, status: 'NOT_FOUND', message: 'Not found' } });
    if (!tokens.has((req.headers.authorization ?? '').replace(/^Bearer /, '')))
      return json(
        401,
        failure(401, 'UNAUTHENTICATED', { authenticationError: 'OAUTH_TOKEN_INVALID' }, 'Oauth token is invalid.'),
      );
    if (req.headers['developer-token'] !== ADS.developerToken)
      return json(
        401,
        failure(401, 'UNAUTHENTICATED', { authenticationError: 'DEVELOPER_TOKEN_INVALID' }, 'bad token'),
      );
    if (match[1] === ADS.manager || req.headers['login-customer-id'] !== ADS.manager)
      return json(
        403,
        failure(
          403,
          'PERMISSION_DENIED',
          { authorizationError: 'USER_PERMISSION_DENIED' },
          "User doesn't have permission to access customer.",
        ),
      );
    const query = String((JSON.parse(body) as { query?: string }).query ?? '');
    if (/FROM customer\b/.test(query))
      return json(200, [
        {
          results: [{ customer: { id: ADS.customer, currencyCode: 'EUR' } }],
          fieldMask: 'customer.id,customer.currencyCode',
        },
      ]);
    const between = /FROM campaign WHERE segments\.date BETWEEN '(\d{4}-\d{2}-\d{2})' AND '(\d{4}-\d{2}-\d{2})'/.exec(
      query,
    );
    if (!between)
      return json(400, failure(400, 'INVALID_ARGUMENT', { queryError: 'UNEXPECTED_INPUT' }, 'Error in query.'));
    if (state.quotaOnce > 0) {
      state.quotaOnce -= 1;
      return json(
        429,
        failure(429, 'RESOURCE_EXHAUSTED', { quotaError: 'RESOURCE_EXHAUSTED' }, 'Too many requests.', [
          { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '1s' },
        ]),
      );
    }
    state.reports += 1;
    const [, from, to] = between as unknown as [string, string, string];
    const d = state.data;
    const lo = [from, d.from].sort()[1]!;
    const hi = [to, d.to].sort()[0]!;
    const records = lo <= hi ? campaignDays(lo, hi, d.campaigns, d.version) : [];
    for (const r of records)
      if (r.campaign_id === 'c0') state.datesAsked.set(r.date, (state.datesAsked.get(r.date) ?? 0) + 1);
    state.served += records.length;
    const batches: unknown[] = [];
    for (let i = 0; i < records.length; i += 10_000)
      batches.push({
        results: records.slice(i, i + 10_000).map(row),
        fieldMask: 'customer.currencyCode,campaign.id',
        requestId: randomUUID(),
      });
    if (batches.length === 0) batches.push({ fieldMask: 'customer.currencyCode,campaign.id', requestId: randomUUID() });
    return json(200, batches);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const state: GoogleAdsServer = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    served: 0,
    datesAsked: new Map(),
    reports: 0,
    quotaOnce: 0,
    refreshRevoked: false,
    data: { from: '2000-01-01', to: '2000-01-01', campaigns: 0, version: () => 0 },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return state;
}
