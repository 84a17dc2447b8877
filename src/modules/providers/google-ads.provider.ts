import { z } from 'zod';
import { readBody } from '../../platform/outbound/outbound-request.js';
import { addDays, dayNumber } from './dates.js';
import { adsErrorCode, adsHint, type AdsStatus, adsStatusOfBody } from './google-ads.errors.js';
import { NangoRef } from './http-json.provider.js';
import {
  type CanonicalRecord,
  explainError,
  ProviderError,
  timed,
  type DateWindow,
  type Provider,
  type ProviderContext,
  checkAccessToken,
  tokensOf,
} from './provider.js';
import { apiBaseUrl, apiUrl } from './source-urls.js';
import { ahead, sourceRequest } from './source-request.js';

/**
 * Google Ads over REST: `googleAds:searchStream` with GAQL over `campaign`, one request per
 * slice of the window. Each answer is read whole and parsed with JSON.parse: a streaming JSON
 * parser measured 0.35× as fast. So that memory stays one answer deep whatever the account's size,
 * a slice is sized in rows, not days: the first asks for one day, and each next one for as many
 * days (at most `window_days`) as hold about `answer_rows` rows at the last slice's rows per day.
 * With a fixed 7 days, 2,500 campaigns made answers 4× those of 625 and the run's peak RSS grew
 * 38 % from 250k to 1M rows (bench:sources). An answer over 64 MiB asks for a narrower window_days.
 */
const API_VERSION = 'v26';
const SCOPE = 'https://www.googleapis.com/auth/adwords';
const MAX_ANSWER_BYTES = 64 * 1024 * 1024;

const CustomerId = z
  .string()
  .transform((s) => s.replaceAll('-', ''))
  .pipe(z.string().regex(/^\d{10}$/, 'must be a 10-digit customer id (dashes allowed)'));

export const GoogleAdsConfig = z
  .object({
    customer_id: CustomerId.describe('The advertiser account, 123-456-7890 or 1234567890.'),
    login_customer_id: CustomerId.optional().describe('The manager (MCC) account to act through, when there is one.'),
    api_base_url: apiBaseUrl('https://googleads.googleapis.com'),
    api_version: z
      .string()
      .regex(/^v\d+$/)
      .default(API_VERSION)
      .describe('The API major version (each lives about a year).'),
    token_url: z.url({ protocol: /^https?$/ }).default('https://oauth2.googleapis.com/token'),
    window_days: z.number().int().min(1).max(31).default(7).describe('Days per request, at most.'),
    answer_rows: z
      .number()
      .int()
      .min(10)
      .max(100_000)
      .default(5_000)
      .describe('About how many rows one answer holds: fewer days per request for a large account.'),
    timeout_ms: z.number().int().min(1000).max(300_000).default(60_000),
    nango: NangoRef.optional().describe('Take the OAuth access token from Nango (the developer token stays here).'),
  })
  .strict();
export type GoogleAdsConfig = z.infer<typeof GoogleAdsConfig>;

export const GoogleAdsSecrets = z
  .object({
    developer_token: z.string().min(10).max(200),
    client_id: z.string().min(1),
    client_secret: z.string().min(1),
    refresh_token: z.string().min(1),
  })
  .strict();
export type GoogleAdsSecrets = z.infer<typeof GoogleAdsSecrets>;

const GoogleAdsNangoSecrets = z.object({ developer_token: z.string().min(10).max(200) }).strict();

type Ctx = ProviderContext<GoogleAdsConfig, GoogleAdsSecrets>;

/** One row of the campaign report as the REST API spells it (camelCase; proto3 omits zeros). */
export interface AdsRow {
  customer?: { currencyCode?: string };
  campaign?: { id?: string; name?: string; advertisingChannelType?: string };
  segments?: { date?: string };
  metrics?: {
    costMicros?: string;
    impressions?: string;
    clicks?: string;
    conversions?: number;
    conversionsValue?: number;
  };
}

/** advertising_channel_type → the canonical channel (docs/api.md has the table). */
const CHANNELS: Record<string, string> = {
  SEARCH: 'paid_search',
  DISPLAY: 'display',
  SHOPPING: 'shopping',
  VIDEO: 'video',
  PERFORMANCE_MAX: 'performance_max',
  DEMAND_GEN: 'demand_gen',
  MULTI_CHANNEL: 'multi_channel',
  HOTEL: 'travel',
  TRAVEL: 'travel',
  LOCAL: 'local',
  LOCAL_SERVICES: 'local',
  SMART: 'local',
  UNKNOWN: 'other',
  UNSPECIFIED: 'other',
};

export function channelOf(type: string | undefined): string {
  if (!type) return 'other';
  return CHANNELS[type] ?? type.toLowerCase();
}

const REPORT_FIELDS = [
  'customer.currency_code',
  'campaign.id',
  'campaign.name',
  'campaign.advertising_channel_type',
  'segments.date',
  'metrics.cost_micros',
  'metrics.impressions',
  'metrics.clicks',
  'metrics.conversions',
  'metrics.conversions_value',
].join(', ');

function failure(what: string, httpStatus: number, status: AdsStatus | undefined, exhausted: string): ProviderError {
  const error = adsErrorCode(status);
  const code = error?.code ?? status?.status ?? '';
  const hint =
    code === 'authorizationError.USER_PERMISSION_DENIED'
      ? ' (reaching a client account through a manager? set login_customer_id to the manager)'
      : code.startsWith('authorizationError.DEVELOPER_TOKEN')
        ? ' (the developer token is not approved for this account)'
        : code.startsWith('authenticationError')
          ? ' (the OAuth grant was refused)'
          : '';
  // A query error's message quotes GAQL the provider wrote, never a secret.
  const message = error?.message ?? (status?.message ?? '').slice(0, 200);
  return new ProviderError(
    `${what}: HTTP ${httpStatus} from Google Ads${exhausted}${code ? ` ${code}` : ''}${message ? `: ${message}` : ''}${hint}`,
  );
}

/** One searchStream request: its answer, the whole JSON array of response batches. */
async function searchStream(ctx: Ctx, gaql: string, what: string): Promise<AdsRow[]> {
  const url = apiUrl(
    ctx.config.api_base_url,
    ctx.config.api_version,
    'customers',
    ctx.config.customer_id,
    'googleAds:searchStream',
  );
  const tokens = tokensOf(ctx);
  let accessToken = await tokens.current();
  for (let renewed = false; ; renewed = true) {
    const answer = await sourceRequest(ctx, url, {
      what,
      method: 'POST',
      headers: {
        authorization: `Bearer ${accessToken}`,
        'developer-token': ctx.secrets.developer_token,
        ...(ctx.config.login_customer_id ? { 'login-customer-id': ctx.config.login_customer_id } : {}),
        'content-type': 'application/json',
        accept: 'application/json',
      },
      body: JSON.stringify({ query: gaql }),
      timeoutMs: ctx.config.timeout_ms,
      hint: adsHint,
    });
    const { res } = answer;
    if (res.status === 401 && !renewed) {
      res.body.resume();
      accessToken = await tokens.renew(accessToken);
      continue;
    }
    let body: unknown;
    try {
      body = JSON.parse((await readBody(res, MAX_ANSWER_BYTES)).toString('utf8'));
    } catch (error) {
      if ((error as Error).message?.includes('larger than'))
        throw new ProviderError(`${what}: the answer is larger than 64 MiB; narrow window_days`);
      body = undefined;
    }
    const tries = answer.exhausted ? ` after ${answer.tries} tries` : '';
    if (res.status < 200 || res.status >= 300) throw failure(what, res.status, adsStatusOfBody(body), tries);
    if (!Array.isArray(body))
      throw new ProviderError(`${what}: Google Ads answered with something that is not a stream`);
    // A failure part-way through the stream arrives as an element of the array.
    const failed = adsStatusOfBody(body);
    if (failed) throw failure(what, failed.code ?? 500, failed, tries);
    const rows: AdsRow[] = [];
    for (const batch of body as { results?: AdsRow[] }[]) for (const row of batch.results ?? []) rows.push(row);
    return rows;
  }
}

const count = (text: string | undefined) => (text ? Number(text) : 0);

export const googleAdsProvider: Provider<GoogleAdsConfig, GoogleAdsSecrets, AdsRow> = {
  name: 'google_ads',
  description:
    'Google Ads API (REST googleAds:searchStream): campaign-day cost, clicks, impressions, conversions and value; ' +
    'OAuth refresh token or Nango, plus a developer token.',
  configSchema: GoogleAdsConfig as unknown as z.ZodType<GoogleAdsConfig>,
  secretsSchema: GoogleAdsSecrets,
  nangoSecretsSchema: GoogleAdsNangoSecrets,
  nango: true,
  oauth: (config) =>
    config.nango
      ? undefined
      : {
          token_url: config.token_url,
          grant_type: 'refresh_token',
          scope: SCOPE,
          token_auth: 'body',
          timeout_ms: config.timeout_ms,
        },
  outboundTargets: (config) => [
    { path: 'config.api_base_url', url: config.api_base_url },
    ...(config.nango ? [] : [{ path: 'config.token_url', url: config.token_url }]),
  ],
  async verify(ctx) {
    const { result: token_check, issued, expired } = await checkAccessToken(ctx, 'access token issued', explainError);
    const connectivity = issued
      ? await timed(async () => {
          const rows = await searchStream(
            ctx,
            'SELECT customer.id, customer.currency_code FROM customer LIMIT 1',
            'the test query',
          );
          const currency = rows[0]?.customer?.currencyCode;
          return `customer ${ctx.config.customer_id} answered${currency ? ` (currency ${currency})` : ''}`;
        }, explainError)
      : { ok: false, ms: 0, reason: 'skipped: no access token' };
    const status = token_check.ok && connectivity.ok ? 'active' : expired ? 'expired' : 'error';
    return { status, token_check, connectivity };
  },
  async *fetch(ctx, window: DateWindow) {
    const days = dayNumber(window.to) - dayNumber(window.from) + 1;
    const report = (offset: number, span: number) => {
      const from = addDays(window.from, offset);
      const to = addDays(window.from, Math.min(days - 1, offset + span - 1));
      const gaql = `SELECT ${REPORT_FIELDS} FROM campaign WHERE segments.date BETWEEN '${from}' AND '${to}'`;
      return ahead(searchStream(ctx, gaql, `the report of ${from}..${to}`));
    };
    // The next slice is asked for while this one's rows are mapped and written: one slice ahead.
    let span = 1;
    let pending = days > 0 ? report(0, span) : undefined;
    for (let offset = 0; pending; ) {
      const rows = await pending;
      const perDay = rows.length / Math.min(span, days - offset);
      offset += span;
      span = Math.max(1, Math.min(ctx.config.window_days, Math.floor(ctx.config.answer_rows / Math.max(perDay, 1))));
      pending = offset < days ? report(offset, span) : undefined;
      yield* rows;
    }
  },
  toCanonical(row): CanonicalRecord {
    const id = row.campaign?.id;
    const date = row.segments?.date;
    const currency = row.customer?.currencyCode;
    if (!id || !date || !currency) throw new ProviderError('a report row lacks campaign.id, segments.date or currency');
    const m = row.metrics ?? {};
    return {
      date,
      campaign_id: id,
      campaign_name: row.campaign?.name || id,
      channel: channelOf(row.campaign?.advertisingChannelType),
      currency,
      spend: count(m.costMicros) / 1e6,
      impressions: count(m.impressions),
      clicks: count(m.clicks),
      conversions: m.conversions ?? 0,
      revenue: m.conversionsValue ?? 0,
    };
  },
};
