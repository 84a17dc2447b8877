import fs from 'node:fs';
import { StartupError } from '../errors.js';

const EX_CANTCREAT = 73;
const EX_TEMPFAIL = 75;

/**
 * One process per embedded store. PGlite has no postmaster.pid of its own: a second process
 * opening the same data directory starts fine and the two then overwrite each other's pages. So
 * the directory is claimed with `<dataDir>.lock` (the holder's pid), created exclusively; a lock
 * whose process is gone (killed, crashed) is taken over. Returns the release.
 */
export function lockDataDir(dataDir: string, pid = process.pid): () => void {
  const file = `${dataDir}.lock`;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      fs.writeFileSync(file, `${pid}\n`, { flag: 'wx' });
      return () => {
        // Only our own lock: a process that took over a lock we lost must keep it.
        if (readHolder(file) === pid) fs.rmSync(file, { force: true });
      };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST') throw unusable(dataDir, error);
    }
    const holder = readHolder(file);
    if (holder !== undefined && holder !== pid && isRunning(holder)) {
      throw new StartupError(
        'data_dir_in_use',
        `DATA_DIR ${dataDir.replace(/\/pglite$/, '')} is in use by another context-hub process (pid ${holder}): the embedded store serves one process at a time. Stop that process, or set DATABASE_URL so several share a PostgreSQL.`,
        EX_TEMPFAIL,
      );
    }
    // Ours already, or left by a process that is gone.
    fs.rmSync(file, { force: true });
  }
  throw new StartupError('data_dir_in_use', `could not claim ${file}: other processes keep claiming it`, EX_TEMPFAIL);
}

/**
 * Writes the address the holder serves on as the lock file's second line, once it listens: a
 * backup of a running store must go through the process that owns it (`context-hub backup` reads
 * it with lockHolder). Only our own lock is written to.
 */
export function recordListenUrl(dataDir: string, url: string, pid = process.pid): void {
  const file = `${dataDir}.lock`;
  if (readHolder(file) !== pid) return;
  fs.writeFileSync(file, `${pid}\n${url}\n`);
}

/** The live process that holds the store, with the URL it serves on once it listens; else undefined. */
export function lockHolder(dataDir: string): { pid: number; url: string | undefined } | undefined {
  const file = `${dataDir}.lock`;
  const pid = readHolder(file);
  if (pid === undefined || pid === process.pid || !isRunning(pid)) return undefined;
  let url: string | undefined;
  try {
    url = fs.readFileSync(file, 'utf8').split('\n')[1]?.trim() || undefined;
  } catch {
    url = undefined;
  }
  return { pid, url };
}

/** The data directory exists (created if need be) and can be written; a clear stop otherwise. */
export function ensureWritableDir(dir: string): void {
  try {
    fs.mkdirSync(dir, { recursive: true });
    fs.accessSync(dir, fs.constants.W_OK);
  } catch (error) {
    throw unusable(dir, error);
  }
}

function unusable(dir: string, error: unknown): StartupError {
  const { code, message } = error as NodeJS.ErrnoException;
  return new StartupError(
    'data_dir_unusable',
    `DATA_DIR cannot be used at ${dir}: ${code ?? message}. Set DATA_DIR to a directory this process can create and write.`,
    EX_CANTCREAT,
  );
}

function readHolder(file: string): number | undefined {
  try {
    const pid = Number.parseInt(fs.readFileSync(file, 'utf8'), 10);
    return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** Whether `pid` is a live Node process (on Linux a recycled pid of another program does not count). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: it exists and belongs to someone else.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('node');
  } catch {
    // No /proc (macOS): the pid is alive, which is all we can know.
    return true;
  }
}
