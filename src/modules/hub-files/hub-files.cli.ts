import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { Config } from '../../platform/config.js';
import { lockHolder } from '../../platform/db/data-dir-lock.js';
import { embeddedDataDir } from '../../platform/db/open.js';
import { AppError, ValidationError } from '../../platform/errors.js';
import type { RequestContext } from '../../platform/context/request-context.js';
import { readTarGz, type TarEntry, writeTarGz } from '../../platform/tar.js';
import { runningService } from '../backup/index.js';
import { readDir, writeDir } from './hub-files.dir.js';
import { IGNORED_EXAMPLES, type ImportFolder, IMPORT_LIMITS } from './hub-files.folder.js';
import { byCodePoint } from './hub-files.format.js';
import type { ImportOptions, ImportResultOutput } from './hub-files.schemas.js';
import type { HubFilesService } from './hub-files.service.js';

export const HUB_FILES_HELP = `Usage: context-hub export [--token t] <project_id> <dir>
       context-hub import [--dry-run] [--prune] [--propose] [--token t] <project_id> <dir>
export writes the project's hub as files into <dir>: skills/<name>/SKILL.md, knowledge/<topic_id>.md,
taxonomy.yaml (files of that layout the hub no longer holds are removed; other files are left alone).
import applies <dir>: new and changed objects become new versions, unchanged ones are left alone,
objects the folder lacks are deleted only with --prune; --dry-run prints the plan and writes nothing;
neither follows a symbolic link inside taxonomy.yaml, skills/ or knowledge/ (one is refused);
--propose makes new and changed Skills and Knowledge proposals for review. A bad file refuses the
whole import, with every problem listed as file:line. While \`serve\` runs on the embedded store, both
go through it (an editor's token: --token, else CONTEXT_HUB_TOKEN, else SERVICE_STATIC_TOKEN in
static mode); otherwise they open the store (DATA_DIR or DATABASE_URL) themselves.`;

const EX_USAGE = 64;
const EX_DATAERR = 65;
const EX_NOINPUT = 66;
const EX_UNAVAILABLE = 69;
const EX_IOERR = 74;
const EX_TEMPFAIL = 75;
const EX_NOPERM = 77;

function fail(message: string, code: number): number {
  process.stderr.write(`context-hub: ${message}\n`);
  return code;
}

interface Args {
  projectId: string;
  dir: string;
  token?: string;
  options: ImportOptions;
}

function parseArgs(command: 'export' | 'import', args: string[]): Args | string {
  const options: ImportOptions = { dry_run: false, prune: false, propose: false };
  const flags: Record<string, keyof ImportOptions> = {
    '--dry-run': 'dry_run',
    '--prune': 'prune',
    '--propose': 'propose',
  };
  let token: string | undefined;
  const rest: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--token') {
      token = args[++i];
      if (!token) return '--token needs a value';
    } else if (command === 'import' && arg in flags) options[flags[arg]!] = true;
    else if (arg.startsWith('--')) return `unknown option ${arg}`;
    else rest.push(arg);
  }
  if (rest.length !== 2) return 'name a <project_id> and a <dir>';
  return { projectId: rest[0]!, dir: rest[1]!, options, ...(token ? { token } : {}) };
}

type Route =
  | { kind: 'local' }
  | { kind: 'service'; url: string; pid: number }
  | { kind: 'refused'; code: number; message: string };

function route(config: Config): Route {
  if (config.databaseUrl) return { kind: 'local' };
  const dataDir = embeddedDataDir(config);
  const holder = lockHolder(dataDir);
  if (holder) {
    if (!holder.url)
      return {
        kind: 'refused',
        code: EX_TEMPFAIL,
        message: `the embedded store is held by pid ${holder.pid}, which is not serving yet: retry once it serves`,
      };
    return { kind: 'service', url: holder.url, pid: holder.pid };
  }
  if (!fs.existsSync(path.join(dataDir, 'PG_VERSION')))
    return {
      kind: 'refused',
      code: EX_NOINPUT,
      message: `there is no embedded store at ${dataDir} (DATA_DIR=${config.dataDir})`,
    };
  return { kind: 'local' };
}

/**
 * The service graph over the store this process opens (the store is not being served). Given by
 * the CLI entry, since modules do not import the assembly (app/).
 */
export type OpenHub = (config: Config) => Promise<{
  hubFiles: HubFilesService;
  ctx: RequestContext;
  close(): Promise<void>;
}>;

async function locally<T>(
  config: Config,
  open: OpenHub,
  fn: (hub: HubFilesService, ctx: RequestContext) => Promise<T>,
) {
  const hub = await open(config);
  try {
    return await fn(hub.hubFiles, hub.ctx);
  } finally {
    await hub.close();
  }
}

interface Answer {
  status: number;
  body: Buffer;
}

/** One request to the serving process; a failure to reach it becomes a refusal the operator can read. */
async function call(
  config: Config,
  url: string,
  token: string | undefined,
  request: { method: string; path: string; body?: Buffer },
): Promise<Answer> {
  try {
    return await send(config, url, token, request);
  } catch (error) {
    const detail = JSON.stringify({ code: 'service_unreachable', detail: `${url}: ${(error as Error).message}` });
    return { status: 503, body: Buffer.from(detail) };
  }
}

function send(
  config: Config,
  url: string,
  token: string | undefined,
  request: { method: string; path: string; body?: Buffer },
): Promise<Answer> {
  const { target, hostHeader } = runningService(url, config);
  return new Promise((resolve, reject) => {
    const req = http.request(
      target,
      {
        method: request.method,
        path: request.path,
        headers: {
          host: hostHeader,
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(request.body
            ? { 'content-type': 'application/gzip', 'content-length': String(request.body.length) }
            : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(request.body);
  });
}

/** A refusal of the service (problem+json) or of the service graph (AppError), told to the operator. */
function refused(problem: {
  status: number;
  code?: string;
  detail?: string;
  errors?: { path: string; message: string }[];
}): number {
  if (problem.code === 'import_invalid' && problem.errors) {
    for (const e of problem.errors) process.stderr.write(`${e.path}: ${e.message}\n`);
    return fail(problem.detail ?? 'the folder has problems; nothing was changed', EX_DATAERR);
  }
  const why = problem.errors?.map((e) => `${e.path} ${e.message}`).join('; ');
  const code =
    problem.status === 401 || problem.status === 403 ? EX_NOPERM : problem.status >= 500 ? EX_UNAVAILABLE : EX_DATAERR;
  return fail(`${problem.code ?? problem.status}: ${problem.detail ?? ''}${why ? ` (${why})` : ''}`, code);
}

function fromAppError(error: unknown): number {
  if (!(error instanceof AppError)) throw error;
  return refused({
    status: error.status,
    code: error.code,
    detail: error.message,
    ...(error instanceof ValidationError ? { errors: error.errors } : {}),
  });
}

function fromAnswer(answer: Answer): number {
  try {
    return refused({ status: answer.status, ...(JSON.parse(answer.body.toString('utf8')) as object) });
  } catch {
    return fail(`the service answered ${answer.status}`, EX_UNAVAILABLE);
  }
}

const tokenOf = (args: Args, config: Config) =>
  args.token ?? process.env.CONTEXT_HUB_TOKEN ?? (config.authMode === 'static' ? config.staticToken : undefined);

/** `context-hub export <project_id> <dir>` */
export async function exportCommand(argv: string[], config: Config, open: OpenHub): Promise<number> {
  const args = parseArgs('export', argv);
  if (typeof args === 'string') return fail(`export: ${args}\n\n${HUB_FILES_HELP}`, EX_USAGE);
  const where = route(config);
  if (where.kind === 'refused') return fail(where.message, where.code);
  let files: TarEntry[];
  if (where.kind === 'local') {
    try {
      files = await locally(config, open, async (hub, ctx) => (await hub.exportFiles(ctx, args.projectId)).files);
    } catch (error) {
      return fromAppError(error);
    }
  } else {
    const answer = await call(config, where.url, tokenOf(args, config), {
      method: 'GET',
      path: `/api/projects/${encodeURIComponent(args.projectId)}/export`,
    });
    if (answer.status !== 200) return fromAnswer(answer);
    try {
      const limits = {
        maxInflatedBytes: IMPORT_LIMITS.inflatedBytes,
        maxEntries: IMPORT_LIMITS.entries,
        maxNameBytes: IMPORT_LIMITS.nameBytes,
      };
      files = await readTarGz(answer.body, limits, (entry) => entry.type === 'file');
    } catch (error) {
      return fail(`the service's export ${(error as Error).message}`, EX_UNAVAILABLE);
    }
  }
  let removed: string[];
  try {
    ({ removed } = writeDir(args.dir, files));
  } catch (error) {
    if (error instanceof AppError) return fromAppError(error);
    return fail(`cannot write ${args.dir}: ${(error as Error).message}`, EX_IOERR);
  }
  process.stdout.write(`exported ${args.projectId} into ${args.dir}: ${files.length} files\n`);
  for (const stale of removed) process.stdout.write(`  removed ${stale} (no longer in the hub)\n`);
  return 0;
}

/** `context-hub import <project_id> <dir>` */
export async function importCommand(argv: string[], config: Config, open: OpenHub): Promise<number> {
  const args = parseArgs('import', argv);
  if (typeof args === 'string') return fail(`import: ${args}\n\n${HUB_FILES_HELP}`, EX_USAGE);
  if (!fs.existsSync(args.dir) || !fs.statSync(args.dir).isDirectory())
    return fail(`${args.dir} is not a directory`, EX_NOINPUT);
  const where = route(config);
  if (where.kind === 'refused') return fail(where.message, where.code);
  let folder: ImportFolder;
  try {
    folder = readDir(args.dir);
  } catch (error) {
    if (error instanceof AppError) return fromAppError(error);
    return fail(`cannot read ${args.dir}: ${(error as Error).message}`, EX_NOINPUT);
  }
  let result: ImportResultOutput;
  if (where.kind === 'local') {
    try {
      result = await locally(config, open, (hub, ctx) => hub.importFiles(ctx, args.projectId, folder, args.options));
    } catch (error) {
      return fromAppError(error);
    }
  } else if (folder.problems.length > 0) {
    // Files too large to send: the service would refuse them unread, so say so here.
    return refused({
      status: 400,
      code: 'import_invalid',
      detail: `The folder has ${folder.problems.length} problem(s); nothing was changed.`,
      errors: folder.problems.map((p) => ({ path: p.file, message: p.message })),
    });
  } else {
    const flags = Object.entries(args.options)
      .map(([name, on]) => `${name}=${on}`)
      .join('&');
    const answer = await call(config, where.url, tokenOf(args, config), {
      method: 'POST',
      path: `/api/projects/${encodeURIComponent(args.projectId)}/import?${flags}`,
      body: await writeTarGz(folder.files),
    });
    if (answer.status !== 200) return fromAnswer(answer);
    result = JSON.parse(answer.body.toString('utf8')) as ImportResultOutput;
  }
  const examples = [...folder.ignored.examples, ...result.ignored].sort(byCodePoint).slice(0, IGNORED_EXAMPLES);
  process.stdout.write(formatResult(result, { count: folder.ignored.count + result.ignored_count, examples }));
  return 0;
}

function counts(c: ImportResultOutput['unchanged']): string {
  return `${c.skills} skills, ${c.knowledge} knowledge sheets, ${c.business_keys} business keys, ${c.business_links} links`;
}

export function formatResult(result: ImportResultOutput, ignored: { count: number; examples: string[] }): string {
  const state = result.dry_run ? 'dry run, nothing written' : result.applied ? 'applied' : 'nothing to change';
  const lines = [`import into ${result.project_id}: ${result.changes.length} change(s) (${state})`];
  for (const c of result.changes) {
    const version = c.version !== null ? ` → v${c.version}` : '';
    lines.push(`  ${c.action} ${c.kind} ${c.name}${version}${c.file ? ` (${c.file})` : ''}`);
  }
  lines.push(`unchanged: ${counts(result.unchanged)}`);
  if (!result.prune) lines.push(`kept (not in the folder; --prune deletes them): ${counts(result.kept)}`);
  for (const id of result.proposals) lines.push(`proposal ${id} awaits review`);
  for (const file of ignored.examples) lines.push(`ignored: ${file}`);
  if (ignored.count > ignored.examples.length)
    lines.push(`ignored: ${ignored.count - ignored.examples.length} more file(s) outside the layout`);
  return `${lines.join('\n')}\n`;
}
