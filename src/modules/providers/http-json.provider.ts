import { z } from 'zod';
import { addDays, dayNumber } from './dates.js';
import { checkMappingDefaults, FieldMapping, MappingDefaults, mapRecord, pick } from './mapping.js';
import { OutboundError } from '../../platform/outbound/outbound-http.js';
import { discard, readBody } from '../../platform/outbound/outbound-request.js';
import {
  type AccessTokens,
  explainError,
  ProviderError,
  timed,
  type DateWindow,
  type Provider,
  type ProviderContext,
} from './provider.js';
import { sourceRequest, statusFailure } from './source-request.js';

/**
 * A REST source behind OAuth2: a token from `token_url` (refresh-token or client-credentials
 * grant), records at `records_path` of each JSON page, cursor or page pagination, and the date
 * window sent as query parameters, `window_days` days per request.
 */
const Pagination = z.discriminatedUnion('type', [
  z
    .object({
      type: z.literal('cursor'),
      cursor_param: z.string().min(1).default('cursor'),
      next_cursor_path: z.string().min(1).default('next_cursor'),
    })
    .strict(),
  z
    .object({
      type: z.literal('page'),
      page_param: z.string().min(1).default('page'),
      first_page: z.number().int().min(0).default(1),
      page_size_param: z.string().min(1).optional(),
      page_size: z.number().int().min(1).max(10_000).default(500),
    })
    .strict(),
  z.object({ type: z.literal('none') }).strict(),
]);

/** A connection whose credentials Nango holds: the integration id there (Nango's "unique key"). */
export const NangoRef = z
  .object({ provider_config_key: z.string().min(1).max(200).describe('The Nango integration id.') })
  .strict();

export const HttpJsonConfig = z
  .object({
    url: z.url({ protocol: /^https?$/ }).describe('The records endpoint.'),
    token_url: z
      .url({ protocol: /^https?$/ })
      .optional()
      .describe('Required unless nango is set.'),
    grant_type: z.enum(['refresh_token', 'client_credentials']).optional().describe('Required unless nango is set.'),
    token_auth: z
      .enum(['basic', 'body'])
      .default('basic')
      .describe('Client credentials in a Basic header or in the form body, as the token endpoint wants.'),
    scope: z.string().max(500).optional(),
    nango: NangoRef.optional().describe('Take the access token from Nango (NANGO_URL) instead of token_url.'),
    records_path: z.string().min(1).default('data'),
    pagination: Pagination.default({ type: 'none' }),
    window_params: z
      .object({ from: z.string().min(1).default('start_date'), to: z.string().min(1).default('end_date') })
      .strict()
      .default({ from: 'start_date', to: 'end_date' }),
    window_days: z.number().int().min(1).max(366).default(31),
    max_pages: z.number().int().min(1).max(100_000).default(10_000),
    mapping: FieldMapping,
    defaults: MappingDefaults,
    timeout_ms: z.number().int().min(100).max(120_000).default(15_000),
  })
  .strict()
  // Told beside the other violations (not only once the rest is valid): which fields are missing.
  .refine((c) => c?.nango !== undefined || (c as { token_url?: unknown } | undefined)?.token_url !== undefined, {
    path: ['token_url'],
    message: 'required (or take the token from Nango: nango)',
    when: () => true,
  })
  .refine((c) => c?.nango !== undefined || (c as { grant_type?: unknown } | undefined)?.grant_type !== undefined, {
    path: ['grant_type'],
    message: 'required (or take the token from Nango: nango)',
    when: () => true,
  })
  .superRefine((c, ctx) => checkMappingDefaults(c.mapping, c.defaults, ctx));
export type HttpJsonConfig = z.infer<typeof HttpJsonConfig>;

export const HttpJsonSecrets = z
  .object({
    client_id: z.string().min(1),
    client_secret: z.string().min(1),
    refresh_token: z.string().min(1).optional(),
  })
  .strict();
export type HttpJsonSecrets = z.infer<typeof HttpJsonSecrets>;

type Ctx = ProviderContext<HttpJsonConfig, HttpJsonSecrets>;

function tokensOf(ctx: Ctx): AccessTokens {
  if (!ctx.tokens) throw new ProviderError('no token source for this connection');
  return ctx.tokens;
}

/**
 * One page: retried as a request on 429/503 and transient errors, and asked once more with a
 * renewed token when the API refuses the one it got (the token may expire or be revoked mid-run).
 */
async function getPage(ctx: Ctx, params: Record<string, string>, what: string): Promise<unknown> {
  const url = new URL(ctx.config.url);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  const tokens = tokensOf(ctx);
  let accessToken = await tokens.current();
  for (let renewed = false; ; renewed = true) {
    const answer = await sourceRequest(ctx, url, {
      what,
      headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
      timeoutMs: ctx.config.timeout_ms,
    });
    const { res } = answer;
    if (res.status === 401 && !renewed) {
      discard(res);
      accessToken = await tokens.renew(accessToken);
      continue;
    }
    if (res.status < 200 || res.status >= 300) {
      discard(res);
      const refused = res.status === 401 || res.status === 403 ? ' (access token refused)' : '';
      throw new ProviderError(statusFailure(what, 'the API', answer, refused));
    }
    try {
      return JSON.parse((await readBody(res)).toString('utf8'));
    } catch (error) {
      if (error instanceof OutboundError) throw new ProviderError(`${what}: ${error.message}`);
      throw new ProviderError(`${what}: the API answered with something that is not JSON`);
    }
  }
}

function recordsOf(ctx: Ctx, page: unknown): unknown[] {
  const records = pick(page, ctx.config.records_path);
  if (!Array.isArray(records))
    throw new ProviderError(`no array at records_path "${ctx.config.records_path}" in the API answer`);
  return records;
}

/** All pages of one date slice, following the configured pagination. */
async function* slice(ctx: Ctx, from: string, to: string): AsyncGenerator<unknown> {
  const base = { [ctx.config.window_params.from]: from, [ctx.config.window_params.to]: to };
  const p = ctx.config.pagination;
  let cursor: string | undefined;
  let page = p.type === 'page' ? p.first_page : 0;
  for (let n = 0; n < ctx.config.max_pages; n += 1) {
    const params: Record<string, string> = { ...base };
    if (p.type === 'cursor' && cursor) params[p.cursor_param] = cursor;
    if (p.type === 'page') {
      params[p.page_param] = String(page);
      if (p.page_size_param) params[p.page_size_param] = String(p.page_size);
    }
    const body = await getPage(ctx, params, `page ${n + 1} of ${from}..${to}`);
    const records = recordsOf(ctx, body);
    for (const record of records) yield record;
    if (p.type === 'none') return;
    if (p.type === 'cursor') {
      const next = pick(body, p.next_cursor_path);
      if (next === undefined || next === null || next === '' || records.length === 0) return;
      cursor = String(next);
    } else {
      if (records.length === 0 || (p.page_size_param && records.length < p.page_size)) return;
      page += 1;
    }
  }
  throw new ProviderError(
    `more than max_pages (${ctx.config.max_pages}) pages for one window; raise max_pages or narrow window_days`,
  );
}

export const httpJsonProvider: Provider<HttpJsonConfig, HttpJsonSecrets, unknown> = {
  name: 'http_json',
  description:
    'REST/JSON API with OAuth2 (refresh-token or client-credentials), record selector, cursor or page pagination.',
  configSchema: HttpJsonConfig as unknown as z.ZodType<HttpJsonConfig>,
  secretsSchema: HttpJsonSecrets,
  nango: true,
  oauth: (config) =>
    config.nango
      ? undefined
      : {
          token_url: config.token_url!,
          grant_type: config.grant_type!,
          scope: config.scope,
          token_auth: config.token_auth,
          timeout_ms: config.timeout_ms,
        },
  outboundTargets: (config) => [
    { path: 'config.url', url: config.url },
    ...(config.token_url ? [{ path: 'config.token_url', url: config.token_url }] : []),
  ],
  async verify(ctx) {
    let accessToken: string | undefined;
    let expired = false;
    const token_check = await timed(async () => {
      try {
        accessToken = await tokensOf(ctx).check();
      } catch (error) {
        expired = error instanceof ProviderError && error.status === 'expired';
        throw error;
      }
      return ctx.tokens?.source === 'nango' ? 'access token from Nango' : 'access token issued';
    }, explainError);
    const connectivity = accessToken
      ? await timed(async () => {
          const today = ctx.clock.now().toISOString().slice(0, 10);
          const params: Record<string, string> = {
            [ctx.config.window_params.from]: today,
            [ctx.config.window_params.to]: today,
          };
          if (ctx.config.pagination.type === 'page')
            params[ctx.config.pagination.page_param] = String(ctx.config.pagination.first_page);
          recordsOf(ctx, await getPage(ctx, params, 'the test request'));
          return 'API answered with records';
        }, explainError)
      : { ok: false, ms: 0, reason: 'skipped: no access token' };
    const status = token_check.ok && connectivity.ok ? 'active' : expired ? 'expired' : 'error';
    return { status, token_check, connectivity };
  },
  async *fetch(ctx, window: DateWindow) {
    const days = dayNumber(window.to) - dayNumber(window.from) + 1;
    for (let offset = 0; offset < days; offset += ctx.config.window_days) {
      const from = addDays(window.from, offset);
      const to = addDays(window.from, Math.min(days - 1, offset + ctx.config.window_days - 1));
      yield* slice(ctx, from, to);
    }
  },
  toCanonical: (record, ctx) => mapRecord(record, ctx.config.mapping, ctx.config.defaults),
};
