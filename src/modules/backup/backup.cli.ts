import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Config } from '../../platform/config.js';
import { lockHolder } from '../../platform/db/data-dir-lock.js';
import { embeddedDataDir } from '../../platform/db/open.js';
import { PgliteDatabase } from '../../platform/db/pglite.js';
import { PG_DUMP_HINT } from './backup.service.js';

export const BACKUP_HELP = `Usage: context-hub backup [--token <bearer>] <file>
       context-hub restore <file>
backup writes a consistent snapshot of the embedded store under DATA_DIR (a gzip tarball), whether
\`serve\` is running (it asks that process, POST /api/admin/backup, as an org admin: the token is
--token, else CONTEXT_HUB_TOKEN, else SERVICE_STATIC_TOKEN in static mode) or stopped (it opens the
store itself). restore brings a snapshot back into an empty DATA_DIR. With DATABASE_URL, use pg_dump
and pg_restore instead. DATA_DIR/secrets.key is not in the snapshot: keep it (or SECRETS_KEY) apart.`;

const EX_USAGE = 64;
const EX_NOINPUT = 66;
const EX_UNAVAILABLE = 69;
const EX_CANTCREAT = 73;
const EX_TEMPFAIL = 75;
const EX_NOPERM = 77;

function fail(message: string, code: number): number {
  process.stderr.write(`context-hub: ${message}\n`);
  return code;
}

function parseArgs(args: string[], withToken: boolean): { file: string; token?: string } | string {
  let token: string | undefined;
  const rest: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (withToken && arg === '--token') {
      token = args[++i];
      if (!token) return '--token needs a value';
    } else if (arg.startsWith('--')) return `unknown option ${arg}`;
    else rest.push(arg);
  }
  if (rest.length !== 1) return 'name exactly one <file>';
  return { file: rest[0]!, ...(token ? { token } : {}) };
}

/** `context-hub backup <file>` */
export async function backupCommand(args: string[], config: Config): Promise<number> {
  if (config.databaseUrl)
    return fail(
      `backup is for the embedded store; this configuration uses PostgreSQL (DATABASE_URL). ${PG_DUMP_HINT}`,
      EX_USAGE,
    );
  const parsed = parseArgs(args, true);
  if (typeof parsed === 'string') return fail(`backup: ${parsed}\n\n${BACKUP_HELP}`, EX_USAGE);
  const dataDir = embeddedDataDir(config);
  const holder = lockHolder(dataDir);
  let how: string;
  if (holder) {
    if (!holder.url)
      return fail(
        `the embedded store is held by pid ${holder.pid}, which is not serving yet: retry once it serves`,
        EX_TEMPFAIL,
      );
    const token =
      parsed.token ?? process.env.CONTEXT_HUB_TOKEN ?? (config.authMode === 'static' ? config.staticToken : undefined);
    if (config.authMode === 'oauth' && !token)
      return fail(
        "backup of a running store in oauth mode needs an org admin's access token: --token <bearer>",
        EX_NOPERM,
      );
    const outcome = await fetchSnapshot(holder.url, token, config, parsed.file);
    if (outcome !== undefined) return fail(outcome.message, outcome.code);
    how = `from the running service (pid ${holder.pid})`;
  } else {
    if (!fs.existsSync(path.join(dataDir, 'PG_VERSION')))
      return fail(`there is no embedded store at ${dataDir} (DATA_DIR=${config.dataDir})`, EX_NOINPUT);
    const db = await PgliteDatabase.open({ dataDir });
    try {
      writeAtomically(parsed.file, await db.snapshot());
    } finally {
      await db.close();
    }
    how = 'from the stopped store';
  }
  const bytes = fs.statSync(parsed.file).size;
  process.stdout.write(`backup of ${dataDir} written to ${parsed.file} (${bytes} bytes, ${how})\n`);
  if (!config.secretsKey && fs.existsSync(path.join(config.dataDir, 'secrets.key')))
    process.stderr.write(
      `context-hub: note: connection secrets are encrypted with ${path.join(config.dataDir, 'secrets.key')}, ` +
        'which is not in the backup: keep a copy of it apart, and put it back in DATA_DIR after a restore.\n',
    );
  return 0;
}

/** `context-hub restore <file>` */
export async function restoreCommand(args: string[], config: Config): Promise<number> {
  if (config.databaseUrl)
    return fail(
      `restore is for the embedded store; this configuration uses PostgreSQL (DATABASE_URL). ${PG_DUMP_HINT}`,
      EX_USAGE,
    );
  const parsed = parseArgs(args, false);
  if (typeof parsed === 'string') return fail(`restore: ${parsed}\n\n${BACKUP_HELP}`, EX_USAGE);
  if (!isGzipFile(parsed.file))
    return fail(`${parsed.file} is not a backup written by context-hub backup (a gzip tarball)`, EX_NOINPUT);
  const dataDir = embeddedDataDir(config);
  const holder = lockHolder(dataDir);
  if (holder)
    return fail(
      `DATA_DIR ${config.dataDir} is in use by pid ${holder.pid}: stop it, then restore into an empty DATA_DIR`,
      EX_TEMPFAIL,
    );
  if (fs.existsSync(dataDir) && fs.readdirSync(dataDir).length > 0)
    return fail(
      `${dataDir} already holds a store: restore only into an empty DATA_DIR (move the old one away first)`,
      EX_CANTCREAT,
    );
  let db: PgliteDatabase | undefined;
  try {
    db = await PgliteDatabase.open({ dataDir, templateTarball: parsed.file });
    const [row] = await db.query<{ projects: number }>('SELECT count(*)::int AS projects FROM projects');
    process.stdout.write(
      `restored ${parsed.file} into ${dataDir} (${row?.projects ?? 0} projects); start it with context-hub serve\n`,
    );
    return 0;
  } catch (error) {
    await db?.close().catch(() => undefined);
    db = undefined;
    // Leaves DATA_DIR as empty as it was found, so a corrected restore can run.
    fs.rmSync(dataDir, { recursive: true, force: true });
    const { message } = error as { message?: string };
    return fail(`restore of ${parsed.file} failed: ${message ?? String(error)}`, EX_UNAVAILABLE);
  } finally {
    await db?.close();
  }
}

function isGzipFile(file: string): boolean {
  try {
    const fd = fs.openSync(file, 'r');
    try {
      const head = Buffer.alloc(2);
      return fs.readSync(fd, head, 0, 2, 0) === 2 && head[0] === 0x1f && head[1] === 0x8b;
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return false;
  }
}

/** Written beside the target and renamed into place: a failed backup never leaves a half file. */
function writeAtomically(file: string, bytes: Uint8Array): void {
  const partial = `${file}.partial`;
  fs.writeFileSync(partial, bytes, { mode: 0o600 });
  fs.renameSync(partial, file);
}

/**
 * Where a command reaches the process serving the embedded store (its lock file names the URL),
 * and the Host header to send: one the service accepts (ALLOWED_HOST under
 * HOST_HEADER_VALIDATION=strict), which fetch cannot set, hence node:http in the callers.
 */
export function runningService(listenUrl: string, config: Config): { target: URL; hostHeader: string } {
  const target = new URL(listenUrl);
  // A wildcard bind is reached on loopback.
  if (target.hostname === '0.0.0.0') target.hostname = '127.0.0.1';
  if (target.hostname === '[::]') target.hostname = '[::1]';
  const hostHeader =
    config.hostHeaderValidation === 'strict' && config.allowedHosts[0] ? config.allowedHosts[0] : target.host;
  return { target, hostHeader };
}

/**
 * Asks the running service for its snapshot. node:http rather than fetch: the Host header must be
 * one the service accepts (ALLOWED_HOST under HOST_HEADER_VALIDATION=strict), and fetch cannot set it.
 */
async function fetchSnapshot(
  listenUrl: string,
  token: string | undefined,
  config: Config,
  file: string,
): Promise<{ message: string; code: number } | undefined> {
  const { target, hostHeader } = runningService(listenUrl, config);
  const partial = `${file}.partial`;
  try {
    return await new Promise((resolve, reject) => {
      const request = http.request(
        target,
        {
          method: 'POST',
          path: '/api/admin/backup',
          headers: { host: hostHeader, ...(token ? { authorization: `Bearer ${token}` } : {}) },
        },
        (response) => {
          if (response.statusCode !== 200) {
            let text = '';
            response.setEncoding('utf8');
            response.on('data', (chunk: string) => (text += chunk.slice(0, 4096)));
            response.on('end', () => resolve(refusal(response.statusCode ?? 0, text)));
            return;
          }
          pipeline(response, fs.createWriteStream(partial, { mode: 0o600 }))
            .then(() => {
              fs.renameSync(partial, file);
              resolve(undefined);
            })
            .catch(reject);
        },
      );
      request.on('error', reject);
      request.end();
    });
  } catch (error) {
    fs.rmSync(partial, { force: true });
    const { message } = error as { message?: string };
    return {
      message: `the running service at ${listenUrl} did not hand over the backup: ${message}`,
      code: EX_UNAVAILABLE,
    };
  }
}

function refusal(status: number, body: string): { message: string; code: number } {
  let detail = body;
  try {
    const problem = JSON.parse(body) as { code?: string; detail?: string };
    detail = `${problem.code}: ${problem.detail}`;
  } catch {
    // not problem+json: keep the text
  }
  const code = status === 401 || status === 403 ? EX_NOPERM : EX_UNAVAILABLE;
  const why = status === 401 || status === 403 ? ' (an org admin or owner token is needed: --token)' : '';
  return { message: `the running service refused the backup (${status} ${detail})${why}`, code };
}
