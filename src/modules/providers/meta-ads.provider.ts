import { z } from 'zod';
import { readBody } from '../../platform/outbound/outbound-request.js';
import { addDays, dayNumber } from './dates.js';
import { NangoRef } from './http-json.provider.js';
import { EXPIRED_TOKEN, metaErrorOf, metaHint, slowDownMs } from './meta-ads.usage.js';
import {
  type CanonicalRecord,
  explainError,
  ProviderError,
  timed,
  type DateWindow,
  type Provider,
  type ProviderContext,
} from './provider.js';
import { apiBaseUrl, apiUrl } from './source-urls.js';
import { ahead, sourceRequest } from './source-request.js';

/**
 * Meta's Marketing API insights edge (`/act_<id>/insights`, level=campaign, one row per day),
 * following its cursors on our own URL (never the absolute `paging.next`, which could point
 * anywhere), with the token in the Authorization header so no URL ever carries it.
 */
const API_VERSION = 'v27.0';
const DEFAULT_PURCHASES = ['omni_purchase', 'purchase', 'offsite_conversion.fb_pixel_purchase'];
const FIELDS = 'campaign_id,campaign_name,spend,impressions,clicks,actions,action_values,account_currency,date_start';

export const MetaAdsConfig = z
  .object({
    ad_account_id: z
      .string()
      .transform((s) => s.replace(/^act_/, ''))
      .pipe(z.string().regex(/^\d{1,20}$/, 'must be an ad account id (act_123 or 123)')),
    conversion_action_types: z
      .array(z.string().min(1).max(100))
      .min(1)
      .max(20)
      .default(DEFAULT_PURCHASES)
      .describe(
        'A priority list: the first action type present counts (one purchase is reported under several types).',
      ),
    api_base_url: apiBaseUrl('https://graph.facebook.com'),
    api_version: z
      .string()
      .regex(/^v\d+\.\d$/)
      .default(API_VERSION),
    window_days: z.number().int().min(1).max(90).default(7),
    page_size: z.number().int().min(25).max(5000).default(500),
    timeout_ms: z.number().int().min(1000).max(300_000).default(60_000),
    nango: NangoRef.optional().describe('Take the access token from Nango.'),
  })
  .strict();
export type MetaAdsConfig = z.infer<typeof MetaAdsConfig>;

export const MetaAdsSecrets = z
  .object({ access_token: z.string().min(20).max(1000).describe('A system-user token with ads_read.') })
  .strict();
export type MetaAdsSecrets = z.infer<typeof MetaAdsSecrets>;

type Ctx = ProviderContext<MetaAdsConfig, MetaAdsSecrets>;

interface Action {
  action_type?: string;
  value?: string;
}

export interface InsightRow {
  campaign_id?: string;
  campaign_name?: string;
  spend?: string;
  impressions?: string;
  clicks?: string;
  actions?: Action[];
  action_values?: Action[];
  account_currency?: string;
  date_start?: string;
}

async function accessToken(ctx: Ctx): Promise<string> {
  if (ctx.tokens) return ctx.tokens.current();
  if (!ctx.secrets.access_token) throw new ProviderError('no access_token stored for this connection');
  return ctx.secrets.access_token;
}

/** One GET of the Graph API; 190 means the token is no longer valid: the connection is expired. */
async function get(ctx: Ctx, url: URL, what: string): Promise<{ body: Record<string, unknown>; wait: number }> {
  const answer = await sourceRequest(ctx, url, {
    what,
    headers: { authorization: `Bearer ${await accessToken(ctx)}`, accept: 'application/json' },
    timeoutMs: ctx.config.timeout_ms,
    hint: metaHint,
  });
  const { res } = answer;
  let body: unknown;
  try {
    body = JSON.parse((await readBody(res)).toString('utf8'));
  } catch {
    body = undefined;
  }
  if (res.status < 200 || res.status >= 300) {
    const error = metaErrorOf(body);
    const tries = answer.exhausted ? ` after ${answer.tries} tries` : '';
    if (error?.code === EXPIRED_TOKEN)
      throw new ProviderError(
        `${what}: the access token is no longer valid (code 190${error.error_subcode ? `, subcode ${error.error_subcode}` : ''}); issue a new one`,
        'expired',
      );
    throw new ProviderError(
      `${what}: HTTP ${res.status} from the Marketing API${tries}${error?.code !== undefined ? ` (code ${error.code})` : ''}${error?.message ? `: ${error.message.slice(0, 200)}` : ''}`,
    );
  }
  if (!body || typeof body !== 'object')
    throw new ProviderError(`${what}: the Marketing API answered with something that is not JSON`);
  return { body: body as Record<string, unknown>, wait: slowDownMs(res.headers) };
}

function insightsUrl(ctx: Ctx, from: string, to: string, after: string | undefined, limit: number): URL {
  const url = apiUrl(ctx.config.api_base_url, ctx.config.api_version, `act_${ctx.config.ad_account_id}`, 'insights');
  url.searchParams.set('level', 'campaign');
  url.searchParams.set('time_increment', '1');
  url.searchParams.set('time_range', JSON.stringify({ since: from, until: to }));
  url.searchParams.set('fields', FIELDS);
  url.searchParams.set('limit', String(limit));
  if (after) url.searchParams.set('after', after);
  return url;
}

/** Pauses as the usage headers ask, within the retry bound (a pause is never longer than a retry may wait). */
async function slowDown(ctx: Ctx, ms: number): Promise<void> {
  if (ms > 0) await ctx.outbound.sleep(Math.min(ms, ctx.outbound.retry.maxWaitMs), ctx.signal);
}

/** One page of one slice of the window, and the cursor of the page after it when there is one. */
interface PageAsk {
  from: string;
  to: string;
  page: number;
  after?: string | undefined;
}

async function page(ctx: Ctx, ask: PageAsk): Promise<{ rows: InsightRow[]; wait: number; after?: string }> {
  const { body, wait } = await get(
    ctx,
    insightsUrl(ctx, ask.from, ask.to, ask.after, ctx.config.page_size),
    `page ${ask.page} of ${ask.from}..${ask.to}`,
  );
  const rows = Array.isArray(body.data) ? (body.data as InsightRow[]) : [];
  const paging = body.paging as { cursors?: { after?: string }; next?: string } | undefined;
  const more = paging?.next && paging.cursors?.after && rows.length > 0;
  return { rows, wait, ...(more ? { after: paging.cursors!.after! } : {}) };
}

/**
 * The window's pages in order, slice after slice. The next page is asked for (after the pause the
 * usage headers ask for) while this one's rows are mapped and written: one page ahead.
 */
async function* pages(ctx: Ctx, window: DateWindow): AsyncGenerator<InsightRow> {
  const days = dayNumber(window.to) - dayNumber(window.from) + 1;
  const sliceAt = (offset: number): PageAsk => ({
    from: addDays(window.from, offset),
    to: addDays(window.from, Math.min(days - 1, offset + ctx.config.window_days - 1)),
    page: 1,
  });
  let offset = 0;
  let pending = days > 0 ? ahead(page(ctx, sliceAt(0))) : undefined;
  let ask = sliceAt(0);
  while (pending) {
    const current = await pending;
    let next: PageAsk | undefined;
    if (current.after) next = { ...ask, page: ask.page + 1, after: current.after };
    else {
      offset += ctx.config.window_days;
      if (offset < days) next = sliceAt(offset);
    }
    if (next) {
      const following = next;
      pending = ahead(slowDown(ctx, current.wait).then(() => page(ctx, following)));
      ask = following;
    } else pending = undefined;
    yield* current.rows;
  }
}

const firstActionValue = (list: Action[] | undefined, types: string[]): number => {
  for (const type of types) {
    const hit = list?.find((a) => a.action_type === type);
    if (hit) return Number(hit.value ?? 0);
  }
  return 0;
};

export const metaAdsProvider: Provider<MetaAdsConfig, MetaAdsSecrets, InsightRow> = {
  name: 'meta_ads',
  description:
    'Meta Marketing API insights (level=campaign, daily): spend, impressions, clicks, purchases and their value; ' +
    'system-user access token or Nango.',
  configSchema: MetaAdsConfig as unknown as z.ZodType<MetaAdsConfig>,
  secretsSchema: MetaAdsSecrets,
  nango: true,
  outboundTargets: (config) => [{ path: 'config.api_base_url', url: config.api_base_url }],
  async verify(ctx) {
    let expired = false;
    const explain = (error: unknown) => {
      expired ||= error instanceof ProviderError && error.status === 'expired';
      return explainError(error);
    };
    let currency = '';
    const token_check = await timed(async () => {
      const url = apiUrl(ctx.config.api_base_url, ctx.config.api_version, `act_${ctx.config.ad_account_id}`);
      url.searchParams.set('fields', 'name,account_currency,account_status');
      const { body } = await get(ctx, url, 'the account check');
      currency = typeof body.account_currency === 'string' ? body.account_currency : '';
      return `ad account act_${ctx.config.ad_account_id} readable${currency ? ` (currency ${currency})` : ''}`;
    }, explain);
    const connectivity = token_check.ok
      ? await timed(async () => {
          const today = ctx.clock.now().toISOString().slice(0, 10);
          await get(ctx, insightsUrl(ctx, today, today, undefined, 25), 'the insights check');
          return 'insights answered';
        }, explain)
      : { ok: false, ms: 0, reason: 'skipped: the token check failed' };
    const status = token_check.ok && connectivity.ok ? 'active' : expired ? 'expired' : 'error';
    return { status, token_check, connectivity };
  },
  fetch: (ctx, window) => pages(ctx, window),
  toCanonical(row, ctx): CanonicalRecord {
    if (!row.campaign_id || !row.date_start || !row.account_currency)
      throw new ProviderError('an insights row lacks campaign_id, date_start or account_currency');
    const types = ctx.config.conversion_action_types;
    return {
      date: row.date_start,
      campaign_id: row.campaign_id,
      campaign_name: row.campaign_name || row.campaign_id,
      channel: 'paid_social',
      currency: row.account_currency,
      spend: Number(row.spend ?? 0),
      impressions: Number(row.impressions ?? 0),
      clicks: Number(row.clicks ?? 0),
      conversions: firstActionValue(row.actions, types),
      revenue: firstActionValue(row.action_values, types),
    };
  },
};
