import net from 'node:net';
import pg from 'pg';
import { parse, parseIntoClientConfig } from 'pg-connection-string';
import { OutboundRefusedError, privateAddressRefusal, resolvePinned } from '../../platform/outbound/address-policy.js';
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

/** The host a connection string names ('' for a Unix socket directory, which is this machine). */
export function databaseHost(connectionString: string): { host: string; socket: boolean } {
  const parsed = parse(connectionString);
  const host = parsed.host ?? 'localhost';
  return { host, socket: host.startsWith('/') };
}

/**
 * Connects to the address the outbound policy checked: the host is resolved once, the driver is
 * given that address (so a second resolution cannot move it), and TLS still verifies the name.
 */
async function connect(ctx: Ctx): Promise<pg.Client> {
  const parsed = parseIntoClientConfig(ctx.secrets.connection_string);
  const host = parsed.host ?? 'localhost';
  const { policy } = ctx.outbound;
  if (host.startsWith('/') && !policy.allowPrivate)
    throw new ProviderError(privateAddressRefusal('a Unix socket', 'this machine', policy.setting));
  let address = host;
  if (!host.startsWith('/')) {
    try {
      address = (await resolvePinned(host, policy)).address;
    } catch (error) {
      if (error instanceof OutboundRefusedError) throw new ProviderError(error.message);
      throw new ProviderError(`DNS: ${(error as Error).message}`);
    }
  }
  const named = address !== host && net.isIP(host) === 0;
  const ssl =
    parsed.ssl && named ? { ...(typeof parsed.ssl === 'object' ? parsed.ssl : {}), servername: host } : parsed.ssl;
  const client = new pg.Client({
    ...parsed,
    host: address,
    ssl,
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
  outboundTargets: (_config, secrets) => {
    if (!secrets.connection_string) return [];
    const { host, socket } = databaseHost(secrets.connection_string);
    return [{ path: 'secrets.connection_string', host: socket ? 'localhost' : host }];
  },
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
