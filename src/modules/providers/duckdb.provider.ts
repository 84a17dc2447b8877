import path from 'node:path';
import { z } from 'zod';
import {
  type FileFormat,
  formatOf,
  NOT_ONE_SELECT,
  pathProblem,
  resolveFiles,
  sandboxedRows,
} from './duckdb.sandbox.js';
import { checkMappingDefaults, FieldMapping, MappingDefaults, mapRecord, pick } from './mapping.js';
import { explainError, timed, type DateWindow, type Provider, type ProviderContext } from './provider.js';

/**
 * Parquet, CSV or JSON files under DATA_DIR read by the embedded DuckDB engine, optionally through
 * a SELECT over them (the view `source`) with `$from`/`$to` for the window. Everything about what
 * the engine may touch lives in duckdb.sandbox.ts.
 */
const MULTI_STATEMENT = /;\s*\S/;

export const DuckdbConfig = z
  .object({
    path: z
      .string()
      .min(1)
      .max(1000)
      .describe('A file or glob (*, **, ?, [..], {a,b}) under DATA_DIR, relative to it.'),
    format: z
      .enum(['parquet', 'csv', 'json'])
      .optional()
      .describe('Defaults from the file extension (.parquet, .csv, .json/.jsonl/.ndjson).'),
    query: z
      .string()
      .min(1)
      .max(20_000)
      .optional()
      .describe(
        'One SELECT over the view `source`, with $from and $to (dates) for the window; by default every row whose ' +
          'mapping.date falls in the window.',
      ),
    mapping: FieldMapping,
    defaults: MappingDefaults,
  })
  .strict()
  .superRefine((c, ctx) => {
    if (path.isAbsolute(c.path) || /^[a-z][a-z0-9+.-]*:/i.test(c.path) || c.path.split(/[\\/]/).includes('..'))
      ctx.addIssue({ code: 'custom', path: ['path'], message: 'must be a relative path inside DATA_DIR' });
    if (c.query !== undefined) {
      // The engine's own parser decides at run time; these catch the plain mistakes at creation.
      if (!/\$from\b/.test(c.query) || !/\$to\b/.test(c.query))
        ctx.addIssue({ code: 'custom', path: ['query'], message: 'must use $from and $to for the window' });
      if (MULTI_STATEMENT.test(c.query.trim()))
        ctx.addIssue({ code: 'custom', path: ['query'], message: NOT_ONE_SELECT });
    }
    checkMappingDefaults(c.mapping, c.defaults, ctx);
  });
export type DuckdbConfig = z.infer<typeof DuckdbConfig>;

export const DuckdbSecrets = z.object({}).strict();
export type DuckdbSecrets = z.infer<typeof DuckdbSecrets>;

type Row = Record<string, unknown>;
type Ctx = ProviderContext<DuckdbConfig, DuckdbSecrets>;

const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;

function queryOf(config: DuckdbConfig): string {
  return (
    config.query ??
    `SELECT * FROM source WHERE CAST(${quoteIdent(config.mapping.date)} AS DATE) BETWEEN CAST($from AS DATE) AND CAST($to AS DATE)`
  );
}

/** A column named `a.b` is that column; otherwise a dotted path walks a STRUCT. */
const field = (record: unknown, name: string) => {
  const own = (record as Row)[name];
  return own !== undefined ? own : pick(record, name);
};

async function* rowsOf(ctx: Ctx, window: DateWindow, sql = queryOf(ctx.config)): AsyncGenerator<Row[]> {
  const { root, files } = await resolveFiles(ctx.dataDir, ctx.config.path);
  const format: FileFormat = formatOf(files[0]!, ctx.config.format);
  yield* sandboxedRows(files, format, sql, { from: window.from, to: window.to }, root, ctx.signal);
}

export const duckdbProvider: Provider<DuckdbConfig, DuckdbSecrets, Row> = {
  name: 'duckdb',
  description:
    'Parquet, CSV or JSON files under DATA_DIR queried by the embedded DuckDB engine (sandboxed: those files only, ' +
    'one SELECT, no network or extensions).',
  configSchema: DuckdbConfig as unknown as z.ZodType<DuckdbConfig>,
  secretsSchema: DuckdbSecrets,
  async configProblems(config, { dataDir }) {
    const problem = await pathProblem(dataDir, config.path);
    return problem ? [{ path: 'path', message: problem }] : [];
  },
  async verify(ctx) {
    const token_check = { ok: true, ms: 0, reason: 'no credentials needed' };
    const connectivity = await timed(async () => {
      const today = ctx.clock.now().toISOString().slice(0, 10);
      const { files } = await resolveFiles(ctx.dataDir, ctx.config.path);
      let mapped = 0;
      for await (const rows of rowsOf(ctx, { from: today, to: today })) {
        if (rows[0]) {
          mapRecord(rows[0], ctx.config.mapping, ctx.config.defaults, field);
          mapped = 1;
        }
        break;
      }
      const count = `${files.length} file${files.length === 1 ? '' : 's'}`;
      return mapped ? `${count}; the query ran and its first row maps` : `${count}; the query ran (no rows today)`;
    }, explainError);
    return { status: connectivity.ok ? 'active' : 'error', token_check, connectivity };
  },
  async *fetch(ctx, window) {
    for await (const rows of rowsOf(ctx, window)) yield* rows;
  },
  toCanonical: (record, ctx) => mapRecord(record, ctx.config.mapping, ctx.config.defaults, field),
};
