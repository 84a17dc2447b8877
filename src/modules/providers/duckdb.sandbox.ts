import fs from 'node:fs';
import path from 'node:path';
import { DuckDBInstance, type DuckDBConnection, StatementType } from '@duckdb/node-api';
import { ProviderError } from './provider.js';

/**
 * DuckDB over files under DATA_DIR, and nothing else. No single setting is enough on its own, so
 * every one of these holds: the files are resolved here in Node (a symlink, or anything whose real
 * path leaves DATA_DIR, is refused before DuckDB opens); the engine may then touch only those very
 * files (`allowed_paths`), reaches nothing external (no network, no extension loading or
 * installing), and its configuration is locked before any user text runs; and the user's query
 * must be exactly one SELECT statement, since a locked engine still writes new files next to
 * allowed ones (`COPY … TO`, `ATTACH`, `EXPORT DATABASE`) and runs every statement of a list.
 */
export const MAX_FILES = 1000;

const ENGINE_OPTIONS = {
  threads: '1',
  memory_limit: '512MB',
  autoload_known_extensions: 'false',
  autoinstall_known_extensions: 'false',
  allow_community_extensions: 'false',
};

export type FileFormat = 'parquet' | 'csv' | 'json';

const READERS: Record<FileFormat, string> = { parquet: 'read_parquet', csv: 'read_csv', json: 'read_json' };

const GLOB = /[*?[{]/;

/** A path as DuckDB's SQL text takes it: single quotes doubled. */
const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;

/** DuckDB's first line with the server's own DATA_DIR path replaced by the word DATA_DIR. */
export function duckReason(error: unknown, root: string): string {
  const first = String((error as Error)?.message ?? error).split('\n')[0]!;
  return first.replaceAll(root, 'DATA_DIR').slice(0, 300);
}

async function lockedEngine(settings: string[]): Promise<{ instance: DuckDBInstance; conn: DuckDBConnection }> {
  const instance = await DuckDBInstance.create(':memory:', ENGINE_OPTIONS);
  const conn = await instance.connect();
  try {
    for (const sql of [...settings, 'SET enable_external_access = false', 'SET lock_configuration = true'])
      await conn.run(sql);
  } catch (error) {
    conn.closeSync();
    instance.closeSync();
    throw error;
  }
  return { instance, conn };
}

/** Every match of `pattern` (relative to DATA_DIR), each a regular file whose real path stays inside. */
export async function resolveFiles(dataDir: string, pattern: string): Promise<{ root: string; files: string[] }> {
  const root = await fs.promises.realpath(dataDir);
  let candidates: string[];
  if (GLOB.test(pattern)) {
    // DuckDB's own glob syntax, listed by an engine that may look only inside DATA_DIR.
    const { instance, conn } = await lockedEngine([`SET allowed_directories = [${literal(root + path.sep)}]`]);
    try {
      const reader = await conn.runAndReadAll('SELECT file FROM glob($g) ORDER BY file', {
        g: path.join(root, pattern),
      });
      candidates = reader.getRowObjectsJson().map((row) => String(row.file));
    } catch (error) {
      throw new ProviderError(`path: ${duckReason(error, root)}`);
    } finally {
      conn.closeSync();
      instance.closeSync();
    }
    if (candidates.length === 0) throw new ProviderError(`no file matches path ${JSON.stringify(pattern)}`);
    if (candidates.length > MAX_FILES)
      throw new ProviderError(`path matches ${candidates.length} files; at most ${MAX_FILES} are read at once`);
  } else candidates = [path.join(root, pattern)];
  const files: string[] = [];
  for (const candidate of candidates) {
    const shown = path.relative(root, candidate) || candidate;
    let stat: fs.Stats;
    try {
      stat = await fs.promises.lstat(candidate);
    } catch {
      throw new ProviderError(`file not found: ${shown} (under DATA_DIR)`);
    }
    const real = await fs.promises.realpath(candidate).catch(() => '');
    if (stat.isSymbolicLink() || !stat.isFile() || real !== candidate || !real.startsWith(root + path.sep))
      throw new ProviderError(`path leaves DATA_DIR or is not a regular file (symlink?): ${shown}`);
    files.push(real);
  }
  return { root, files };
}

/**
 * Why `pattern` cannot be read, as far as the files there now show: a symlink on the way (a file
 * or a directory, wherever it points: the engine reads regular files inside DATA_DIR only) or a
 * glob whose matches leave DATA_DIR. Nothing there yet is no problem: the files may come later,
 * and the run says so if they do not.
 */
export async function pathProblem(dataDir: string, pattern: string): Promise<string | undefined> {
  const root = await fs.promises.realpath(dataDir).catch(() => undefined);
  if (!root) return undefined;
  let at = root;
  for (const segment of pattern.split(/[\\/]/)) {
    if (!segment || segment === '.') continue;
    if (GLOB.test(segment)) break;
    at = path.join(at, segment);
    const stat = await fs.promises.lstat(at).catch(() => undefined);
    if (!stat) return undefined;
    if (stat.isSymbolicLink())
      return `goes through a symlink (${path.relative(root, at)}); only regular files inside DATA_DIR are read`;
  }
  if (!GLOB.test(pattern)) return undefined;
  try {
    await resolveFiles(dataDir, pattern);
  } catch (error) {
    if (error instanceof ProviderError && /leaves DATA_DIR/.test(error.message))
      return error.message.replace(/^path /, '');
  }
  return undefined;
}

export function formatOf(file: string, configured: FileFormat | undefined): FileFormat {
  if (configured) return configured;
  if (/\.parquet$/i.test(file)) return 'parquet';
  if (/\.(json|jsonl|ndjson)$/i.test(file)) return 'json';
  if (/\.(csv|tsv|txt)(\.gz)?$/i.test(file)) return 'csv';
  throw new ProviderError('format: the file extension does not say; give format (parquet, csv or json)');
}

/** Whether `sql` is exactly one SELECT statement (checked by DuckDB's own parser and planner). */
export async function oneSelect(conn: DuckDBConnection, sql: string): Promise<boolean> {
  const statements = await conn.extractStatements(sql);
  if (statements.count !== 1) return false;
  const prepared = await statements.prepare(0);
  return prepared.statementType === StatementType.SELECT;
}

export const NOT_ONE_SELECT = 'query must be one read-only SELECT statement';

/**
 * Streams `sql` over the files as the view `source`, with `$from`/`$to` bound where the query
 * names them, in batches of about 2,048 rows (never the whole result in memory).
 */
export async function* sandboxedRows(
  files: string[],
  format: FileFormat,
  sql: string,
  params: Record<string, string>,
  root: string,
  signal?: AbortSignal,
): AsyncGenerator<Record<string, unknown>[]> {
  const { instance, conn } = await lockedEngine([`SET allowed_paths = [${files.map(literal).join(', ')}]`]);
  const interrupt = () => conn.interrupt();
  signal?.addEventListener('abort', interrupt, { once: true });
  try {
    try {
      await conn.run(`CREATE TEMP VIEW source AS SELECT * FROM ${READERS[format]}([${files.map(literal).join(', ')}])`);
    } catch (error) {
      throw new ProviderError(`the files could not be read as ${format}: ${duckReason(error, root)}`);
    }
    let stream: Awaited<ReturnType<DuckDBConnection['stream']>>;
    try {
      const statements = await conn.extractStatements(sql);
      if (statements.count !== 1) throw new ProviderError(NOT_ONE_SELECT);
      const prepared = await statements.prepare(0);
      if (prepared.statementType !== StatementType.SELECT) throw new ProviderError(NOT_ONE_SELECT);
      const names = Array.from({ length: prepared.parameterCount }, (_, i) => prepared.parameterName(i + 1));
      const unknown = names.filter((n) => !(n in params));
      if (unknown.length)
        throw new ProviderError(`query names parameters other than $from and $to: ${unknown.join(', ').slice(0, 100)}`);
      prepared.bind(Object.fromEntries(names.map((n) => [n, params[n]!])));
      stream = await prepared.stream();
    } catch (error) {
      if (error instanceof ProviderError) throw error;
      throw new ProviderError(`query: ${duckReason(error, root)}`);
    }
    try {
      for await (const rows of stream.yieldRowObjectJson()) yield rows;
    } catch (error) {
      throw new ProviderError(`query: ${duckReason(error, root)}`);
    }
  } finally {
    signal?.removeEventListener('abort', interrupt);
    conn.closeSync();
    instance.closeSync();
  }
}
