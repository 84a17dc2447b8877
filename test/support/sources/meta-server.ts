import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type CampaignDay, campaignDays } from './campaign-days.js';

/**
 * A loopback Marketing API following its reference: `GET /v27.0/act_<id>` and the insights edge
 * with level, time_increment=1, time_range and cursor paging (`paging.cursors.after`, `next`), the
 * token required in the Authorization header and never in a URL, the usage headers, a code-80000
 * throttle answered as HTTP 400, and code 190 for a revoked token. One purchase appears under
 * several action types, as Meta reports it.
 */
export interface MetaServer {
  url: string;
  token: string;
  served: number;
  requests: string[];
  /** The percentage every answer's x-business-use-case-usage reports. */
  usagePct: number;
  throttleOnce: boolean;
  /** Answer 190 from this page request on. */
  revokeAfter: number;
  data: { from: string; to: string; campaigns: number; version: (date: string) => number };
  close(): Promise<void>;
}

export const META_ACCOUNT = '1234567';

function insight(r: CampaignDay) {
  const purchases = String(r.conversions);
  const value = r.revenue.toFixed(6);
  return {
    campaign_id: r.campaign_id,
    campaign_name: r.campaign_name,
    spend: (r.cost_micros / 1e6).toFixed(6),
    impressions: String(r.impressions),
    clicks: String(r.clicks),
    account_currency: r.currency,
    date_start: r.date,
    date_stop: r.date,
    ...(r.conversions
      ? {
          actions: [
            { action_type: 'link_click', value: String(r.clicks) },
            { action_type: 'omni_purchase', value: purchases },
            { action_type: 'purchase', value: purchases },
            { action_type: 'offsite_conversion.fb_pixel_purchase', value: purchases },
          ],
          action_values: [
            { action_type: 'omni_purchase', value },
            { action_type: 'purchase', value },
          ],
        }
      : {}),
  };
}

export async function startMetaServer(): Promise<MetaServer> {
  let pages = 0;
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    state.requests.push(`${url.pathname}${url.search}`);
    const usage = {
      'x-business-use-case-usage': JSON.stringify({
        [META_ACCOUNT]: [
          {
            type: 'ads_insights',
            call_count: state.usagePct,
            total_cputime: 1,
            total_time: 1,
            estimated_time_to_regain_access: 0,
          },
        ],
      }),
      'x-ad-account-usage': JSON.stringify({ acc_id_util_pct: 1, reset_time_duration: 0 }),
    };
    const json = (status: number, value: unknown) =>
      res.writeHead(status, { 'content-type': 'application/json', ...usage }).end(JSON.stringify(value));
    const oauth = (message: string, code: number, subcode?: number) =>
      json(code === 190 ? 401 : 400, {
        error: {
          message,
          type: 'OAuthException',
          code,
          ...(subcode ? { error_subcode: subcode } : {}),
          fbtrace_id: 'A1b2',
        },
      });
    if (url.searchParams.has('access_token')) return oauth('access_token in the URL is not accepted here', 100);
    if (req.headers.authorization !== `Bearer ${state.token}`)
      return oauth('Error validating access token: invalid', 190, 467);
    if (url.pathname === `/v27.0/act_${META_ACCOUNT}`)
      return json(200, { name: 'Acme', account_currency: 'EUR', account_status: 1, id: `act_${META_ACCOUNT}` });
    if (url.pathname !== `/v27.0/act_${META_ACCOUNT}/insights`) return oauth('Unsupported get request.', 100);
    if (url.searchParams.get('level') !== 'campaign' || url.searchParams.get('time_increment') !== '1')
      return oauth('level=campaign and time_increment=1 expected', 100);
    pages += 1;
    if (state.revokeAfter > 0 && pages >= state.revokeAfter)
      return oauth('Error validating access token: The session has been invalidated.', 190, 460);
    if (state.throttleOnce) {
      state.throttleOnce = false;
      return json(400, {
        error: {
          message: 'User request limit reached',
          type: 'OAuthException',
          code: 80000,
          error_subcode: 2446079,
          fbtrace_id: 'x',
        },
      });
    }
    const range = JSON.parse(url.searchParams.get('time_range') ?? '{}') as { since?: string; until?: string };
    const d = state.data;
    const lo = [range.since ?? d.from, d.from].sort()[1]!;
    const hi = [range.until ?? d.to, d.to].sort()[0]!;
    const all = lo <= hi ? campaignDays(lo, hi, d.campaigns, d.version) : [];
    const limit = Number(url.searchParams.get('limit') ?? 25);
    const start = url.searchParams.has('after')
      ? Number(Buffer.from(url.searchParams.get('after')!, 'base64url').toString())
      : 0;
    const rows = all.slice(start, start + limit);
    state.served += rows.length;
    const nextStart = start + limit;
    const after = Buffer.from(String(nextStart)).toString('base64url');
    return json(200, {
      data: rows.map(insight),
      paging: {
        cursors: { before: Buffer.from(String(start)).toString('base64url'), after },
        // An absolute next that points elsewhere: a reader must follow the cursor on its own URL.
        ...(nextStart < all.length
          ? { next: `http://169.254.169.254/v27.0/act_${META_ACCOUNT}/insights?after=${after}` }
          : {}),
      },
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const state: MetaServer = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    token: 'EAAsystemusertoken0123456789',
    served: 0,
    requests: [],
    usagePct: 10,
    throttleOnce: false,
    revokeAfter: 0,
    data: { from: '2000-01-01', to: '2000-01-01', campaigns: 0, version: () => 0 },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return state;
}
