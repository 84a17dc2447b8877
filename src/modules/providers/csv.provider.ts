import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { z } from 'zod';
import { discard } from '../../platform/outbound/outbound-request.js';
import { EXPORT_ENCODINGS, readExport } from './export-reader.js';
import { checkMappingDefaults, FieldMapping, inWindow, mapRecord, MappingDefaults } from './mapping.js';
import {
  explainError,
  ProviderError,
  timed,
  type DateWindow,
  type Provider,
  type ProviderContext,
} from './provider.js';
import { sourceRequest } from './source-request.js';

/** CSV or JSON Lines exports: a file under DATA_DIR or an http(s) URL, with a column mapping. */
export const CsvConfig = z
  .object({
    path: z.string().min(1).max(1000).optional().describe('A file under DATA_DIR (relative to it).'),
    url: z.url({ protocol: /^https?$/ }).optional(),
    format: z.enum(['csv', 'jsonl']).optional().describe('Defaults from the file extension (.jsonl/.ndjson → jsonl).'),
    delimiter: z
      .string()
      .length(1)
      .refine((d) => !['"', '\n', '\r'].includes(d), 'must not be a quote or a line break')
      .default(','),
    encoding: z
      .enum(EXPORT_ENCODINGS)
      .optional()
      .describe('The text encoding; defaults to UTF-8 (a byte order mark names UTF-8 or UTF-16 itself).'),
    mapping: FieldMapping,
    defaults: MappingDefaults,
    timeout_ms: z.number().int().min(100).max(120_000).default(15_000),
  })
  .strict()
  .superRefine((c, ctx) => {
    if (!c.path === !c.url)
      ctx.addIssue({ code: 'custom', path: ['path'], message: 'give exactly one of path or url' });
    if (c.path && (path.isAbsolute(c.path) || c.path.split(/[\\/]/).includes('..'))) {
      ctx.addIssue({ code: 'custom', path: ['path'], message: 'must be a relative path inside DATA_DIR' });
    }
    checkMappingDefaults(c.mapping, c.defaults, ctx);
  });
export type CsvConfig = z.infer<typeof CsvConfig>;

export const CsvSecrets = z.object({ bearer_token: z.string().min(1).optional() }).strict();
export type CsvSecrets = z.infer<typeof CsvSecrets>;

type Row = Record<string, string> | Record<string, unknown>;

function formatOf(config: CsvConfig): 'csv' | 'jsonl' {
  if (config.format) return config.format;
  const name = config.path ?? new URL(config.url!).pathname;
  return /\.(jsonl|ndjson)$/i.test(name) ? 'jsonl' : 'csv';
}

function resolvePath(ctx: ProviderContext<CsvConfig>): string {
  const root = path.resolve(ctx.dataDir);
  const full = path.resolve(root, ctx.config.path!);
  if (!full.startsWith(root + path.sep)) throw new ProviderError('path must stay inside DATA_DIR');
  return full;
}

async function openStream(ctx: ProviderContext<CsvConfig, CsvSecrets>): Promise<Readable> {
  if (ctx.config.path) {
    const file = resolvePath(ctx);
    await fs.promises.access(file, fs.constants.R_OK).catch(() => {
      throw new ProviderError(`file not found or not readable: ${ctx.config.path} (under DATA_DIR)`);
    });
    return fs.createReadStream(file);
  }
  const headers: Record<string, string> = ctx.secrets.bearer_token
    ? { authorization: `Bearer ${ctx.secrets.bearer_token}` }
    : {};
  const answer = await sourceRequest(ctx, ctx.config.url!, {
    what: 'the export URL',
    headers,
    timeoutMs: ctx.config.timeout_ms,
  });
  const { res } = answer;
  if (res.status < 200 || res.status >= 300) {
    discard(res);
    const tries = answer.exhausted ? ` after ${answer.tries} tries` : '';
    throw new ProviderError(
      `HTTP ${res.status} from the export URL${tries}${res.status === 401 || res.status === 403 ? ' (credentials refused)' : ''}`,
    );
  }
  return res.body;
}

/** Streams parsed rows: objects keyed by header (CSV) or the parsed JSON lines. */
async function* rows(ctx: ProviderContext<CsvConfig, CsvSecrets>): AsyncGenerator<Row> {
  const stream = await openStream(ctx);
  yield* readExport(stream, {
    format: formatOf(ctx.config),
    delimiter: ctx.config.delimiter,
    encoding: ctx.config.encoding,
  });
}

const byKey = (record: unknown, key: string) => (record as Record<string, unknown>)[key];

export const csvProvider: Provider<CsvConfig, CsvSecrets, Row> = {
  name: 'csv',
  description: 'CSV or JSON Lines export (a file under DATA_DIR or an http(s) URL) with a column mapping.',
  configSchema: CsvConfig as unknown as z.ZodType<CsvConfig>,
  secretsSchema: CsvSecrets,
  outboundTargets: (config) => (config.url ? [{ path: 'config.url', url: config.url }] : []),
  async verify(ctx) {
    const token_check = await timed(
      async () =>
        ctx.secrets.bearer_token ? 'bearer token present (checked by the connectivity test)' : 'no credentials needed',
      explainError,
    );
    const connectivity = await timed(async () => {
      for await (const row of rows(ctx)) {
        // The first row proves the source is reachable and the mapping fits it.
        mapRecord(row, ctx.config.mapping, ctx.config.defaults, formatOf(ctx.config) === 'csv' ? byKey : undefined);
        return 'first row read and mapped';
      }
      return 'reachable, no rows';
    }, explainError);
    return { status: token_check.ok && connectivity.ok ? 'active' : 'error', token_check, connectivity };
  },
  async *fetch(ctx, window: DateWindow) {
    const mapKey = formatOf(ctx.config) === 'csv' ? byKey : undefined;
    for await (const row of rows(ctx)) {
      // The window filter needs the mapped date; mapping happens again in toCanonical (cheap).
      const date = mapRecord(row, ctx.config.mapping, ctx.config.defaults, mapKey).date;
      if (inWindow(date, window)) yield row;
    }
  },
  toCanonical: (row, ctx) =>
    mapRecord(row, ctx.config.mapping, ctx.config.defaults, formatOf(ctx.config) === 'csv' ? byKey : undefined),
};
