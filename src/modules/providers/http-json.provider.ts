import { z } from 'zod';
import { addDays, dayNumber } from './dates.js';
import { checkMappingDefaults, FieldMapping, MappingDefaults, mapRecord, pick } from './mapping.js';
import { requestAccessToken } from './oauth.js';
import {
  explainError,
  ProviderError,
  timed,
  type DateWindow,
  type Provider,
  type ProviderContext,
} from './provider.js';

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

export const HttpJsonConfig = z
  .object({
    url: z.url({ protocol: /^https?$/ }).describe('The records endpoint.'),
    token_url: z.url({ protocol: /^https?$/ }),
    grant_type: z.enum(['refresh_token', 'client_credentials']),
    scope: z.string().max(500).optional(),
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

function token(ctx: Ctx): Promise<string> {
  return requestAccessToken(
    {
      token_url: ctx.config.token_url,
      grant_type: ctx.config.grant_type,
      scope: ctx.config.scope,
      timeout_ms: ctx.config.timeout_ms,
    },
    ctx.secrets,
  );
}

async function getPage(ctx: Ctx, accessToken: string, params: Record<string, string>): Promise<unknown> {
  const url = new URL(ctx.config.url);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  const res = await fetch(url, {
    headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
    signal: AbortSignal.timeout(ctx.config.timeout_ms),
  });
  if (!res.ok) {
    await res.body?.cancel();
    throw new ProviderError(
      `HTTP ${res.status} from the API${res.status === 401 || res.status === 403 ? ' (access token refused)' : ''}`,
    );
  }
  try {
    return await res.json();
  } catch {
    throw new ProviderError('the API answered with something that is not JSON');
  }
}

function recordsOf(ctx: Ctx, page: unknown): unknown[] {
  const records = pick(page, ctx.config.records_path);
  if (!Array.isArray(records))
    throw new ProviderError(`no array at records_path "${ctx.config.records_path}" in the API answer`);
  return records;
}

/** All pages of one date slice, following the configured pagination. */
async function* slice(ctx: Ctx, accessToken: string, from: string, to: string): AsyncGenerator<unknown> {
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
    const body = await getPage(ctx, accessToken, params);
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
  async verify(ctx) {
    let accessToken: string | undefined;
    let expired = false;
    const token_check = await timed(async () => {
      try {
        accessToken = await token(ctx);
      } catch (error) {
        expired = error instanceof ProviderError && error.status === 'expired';
        throw error;
      }
      return 'access token issued';
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
          recordsOf(ctx, await getPage(ctx, accessToken!, params));
          return 'API answered with records';
        }, explainError)
      : { ok: false, ms: 0, reason: 'skipped: no access token' };
    const status = token_check.ok && connectivity.ok ? 'active' : expired ? 'expired' : 'error';
    return { status, token_check, connectivity };
  },
  async *fetch(ctx, window: DateWindow) {
    const accessToken = await token(ctx);
    const days = dayNumber(window.to) - dayNumber(window.from) + 1;
    for (let offset = 0; offset < days; offset += ctx.config.window_days) {
      const from = addDays(window.from, offset);
      const to = addDays(window.from, Math.min(days - 1, offset + ctx.config.window_days - 1));
      yield* slice(ctx, accessToken, from, to);
    }
  },
  toCanonical: (record, ctx) => mapRecord(record, ctx.config.mapping, ctx.config.defaults),
};
