import pg from 'pg';
import { z } from 'zod';
import { checkMappingDefaults, FieldMapping, MappingDefaults, mapRecord } from './mapping.js';
import {
  explainError,
  ProviderError,
  timed,
  type DateWindow,
  type Provider,
  type ProviderContext,
} from './provider.js';

/**
 * A parameterized query against a warehouse the customer already has. It runs inside a READ ONLY
 * transaction (a write fails with SQLSTATE 25006) and is read through a cursor, batch by batch.
 * `$1` and `$2` are the window's first and last date; `params` fill `$3…`.
 */
export const PostgresConfig = z
  .object({
    query: z
      .string()
      .min(1)
      .max(20_000)
      .refine((q) => /\$1\b/.test(q) && /\$2\b/.test(q), 'must use $1 (first date) and $2 (last date) of the window')
      .refine((q) => !/;\s*\S/.test(q.trim().replace(/;\s*$/, '')), 'must be one statement'),
    params: z
      .array(z.union([z.string(), z.number(), z.boolean(), z.null()]))
      .max(20)
      .default([]),
    mapping: FieldMapping,
    defaults: MappingDefaults,
    batch_size: z.number().int().min(100).max(50_000).default(5_000),
    statement_timeout_ms: z.number().int().min(100).max(3_600_000).default(300_000),
    connect_timeout_ms: z.number().int().min(100).max(120_000).default(10_000),
  })
  .strict()
  .superRefine((c, ctx) => checkMappingDefaults(c.mapping, c.defaults, ctx));
export type PostgresConfig = z.infer<typeof PostgresConfig>;

export const PostgresSecrets = z
  .object({ connection_string: z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL') })
  .strict();
export type PostgresSecrets = z.infer<typeof PostgresSecrets>;

type Ctx = ProviderContext<PostgresConfig, PostgresSecrets>;

async function connect(ctx: Ctx): Promise<pg.Client> {
  const client = new pg.Client({
    connectionString: ctx.secrets.connection_string,
    connectionTimeoutMillis: ctx.config.connect_timeout_ms,
  });
  client.on('error', () => undefined);
  await client.connect();
  return client;
}

async function readOnly(client: pg.Client, ctx: Ctx): Promise<void> {
  await client.query('BEGIN TRANSACTION READ ONLY');
  await client.query(`SET LOCAL statement_timeout = ${Number(ctx.config.statement_timeout_ms)}`);
}

const byKey = (record: unknown, key: string) => (record as Record<string, unknown>)[key];

export const postgresProvider: Provider<PostgresConfig, PostgresSecrets, Record<string, unknown>> = {
  name: 'postgres',
  description: 'A parameterized, read-only SQL query against an external PostgreSQL.',
  configSchema: PostgresConfig as unknown as z.ZodType<PostgresConfig>,
  secretsSchema: PostgresSecrets,
  async verify(ctx) {
    let client: pg.Client | undefined;
    const token_check = await timed(async () => {
      client = await connect(ctx);
      await client.query('SELECT 1');
      return 'connected and authenticated';
    }, explainError);
    const connectivity = client
      ? await timed(async () => {
          await readOnly(client!, ctx);
          const today = ctx.clock.now().toISOString().slice(0, 10);
          // Plans and runs the query without reading rows: proves tables, columns and grants.
          await client!.query(`SELECT * FROM (${ctx.config.query.replace(/;\s*$/, '')}) AS q LIMIT 0`, [
            today,
            today,
            ...ctx.config.params,
          ]);
          await client!.query('ROLLBACK');
          return 'query runs read-only';
        }, explainError)
      : { ok: false, ms: 0, reason: 'skipped: could not connect' };
    await (client as pg.Client | undefined)?.end().catch(() => undefined);
    return { status: token_check.ok && connectivity.ok ? 'active' : 'error', token_check, connectivity };
  },
  async *fetch(ctx, window: DateWindow) {
    // Database errors become reasons an operator can act on (SQLSTATE, never the query text).
    const client = await connect(ctx).catch((error: unknown) => {
      throw new ProviderError(explainError(error));
    });
    try {
      await readOnly(client, ctx);
      await client.query(`DECLARE context_hub_rows NO SCROLL CURSOR FOR ${ctx.config.query.replace(/;\s*$/, '')}`, [
        window.from,
        window.to,
        ...ctx.config.params,
      ]);
      for (;;) {
        const { rows } = await client.query<Record<string, unknown>>(
          `FETCH ${Number(ctx.config.batch_size)} FROM context_hub_rows`,
        );
        for (const row of rows) yield row;
        if (rows.length < ctx.config.batch_size) break;
      }
      await client.query('COMMIT');
    } catch (error) {
      throw error instanceof ProviderError ? error : new ProviderError(explainError(error));
    } finally {
      await client.end().catch(() => undefined);
    }
  },
  toCanonical: (row, ctx) => mapRecord(row, ctx.config.mapping, ctx.config.defaults, byKey),
};
