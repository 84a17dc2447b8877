import v8 from 'node:v8';
import { VERSION } from '../app/version.js';
import { assertSecretsKeyForServing, loadConfig, type Config } from '../platform/config.js';
import { ConfigError, StartupError } from '../platform/errors.js';
import { createLogger } from '../platform/logger.js';
import { zodRuntimeState } from '../platform/zod-runtime.js';
import { recordListenUrl } from '../platform/db/data-dir-lock.js';

// The service graph is imported on demand so --help and configuration errors answer at once.
const loadServiceApp = () => import('../app/service-app.js');
// It opens PGlite: imported on demand for the same reason.
const loadBackupCli = () => import('../modules/backup/index.js');
// It may open the store and the service graph: imported on demand for the same reason.
const loadHubFilesCli = () => import('../modules/hub-files/index.js');

const HELP = `context-hub ${VERSION} — governed context for AI agents, over MCP and REST

Usage: context-hub <command>

Commands:
  serve       Serve REST (/api) and MCP (/mcp) on HOST:PORT. Also runs queued jobs unless
              SERVE_WORKERS=false, and drives schedules when SCHEDULER_ENABLED=true.
              On an empty embedded store it creates the demo project proj_demo.
  worker      Run jobs and schedules only (needs DATABASE_URL: several replicas share one PostgreSQL).
  migrate     Apply pending database migrations and exit.
  search-reindex [--check] [--project ID]: rebuild the search index (postings and statistics) of
              one project or all from their live rows; --check only reports drift (exit 1 if any).
  members     add [--role viewer|editor|admin|owner] [--email e] <subject> | list — organization members
              (the first owner: members add --role owner <subject>, or ORG_OWNER_SUBJECT).
  seed-demo   Create and fill the demo project proj_demo (idempotent) and exit.
  backup      backup [--token t] <file>: a consistent snapshot of the embedded store, running or
              stopped (with DATABASE_URL: use pg_dump, as the command says).
  restore     restore <file>: bring a snapshot back into an empty DATA_DIR.
  export      export [--token t] <project_id> <dir>: write the hub as files (SKILL.md, knowledge/*.md,
              taxonomy.yaml) to keep in git.
  import      import [--dry-run] [--prune] [--propose] [--token t] <project_id> <dir>: apply such a
              folder (new versions for what changed; --dry-run prints the plan).
  --help      Show this help.  --version  Print the version.

Storage: embedded PGlite under DATA_DIR (default ./data) unless DATABASE_URL=postgres://… is set.
Configuration is read from the environment; see README.md for every variable.`;

/** The commands that do their work and exit, as opposed to `serve` and `worker`. */
const ONE_SHOT = new Set([
  'migrate',
  'search-reindex',
  'members',
  'seed-demo',
  'backup',
  'restore',
  'export',
  'import',
]);

export async function runCli(argv: string[]): Promise<number> {
  const command = argv[0] ?? '--help';
  // A command that exits within seconds never repays V8's optimizing tier for PGlite's ~10 MB WASM:
  // compiling it in the background cost ~1 s of CPU for `members list` (2.1 → 1.0 s) and ~3 s for
  // `seed-demo` (12.6 → 9.8 s) with the same wall time. Set before the module is first compiled,
  // which happens when the store opens; a server keeps the default, where the tier-up pays off.
  if (ONE_SHOT.has(command)) v8.setFlagsFromString('--liftoff-only');
  try {
    switch (command) {
      case 'serve':
        return await serve(loadConfig());
      case 'worker':
        return await worker(loadConfig());
      case 'migrate':
        return await migrateCommand(loadConfig());
      case 'search-reindex':
        return await searchReindexCommand(argv.slice(1), loadConfig());
      case 'members': {
        const { membersCommand, createMembers } = await import('../app/org-services.js');
        return await membersCommand(argv.slice(1), loadConfig(), createMembers);
      }
      case 'seed-demo':
        return await seedDemo(loadConfig());
      case 'backup':
        return await (await loadBackupCli()).backupCommand(argv.slice(1), loadConfig());
      case 'restore':
        return await (await loadBackupCli()).restoreCommand(argv.slice(1), loadConfig());
      case 'export':
        return await (await loadHubFilesCli()).exportCommand(argv.slice(1), loadConfig(), openHub);
      case 'import':
        return await (await loadHubFilesCli()).importCommand(argv.slice(1), loadConfig(), openHub);
      case '--version':
      case '-v':
        process.stdout.write(`${VERSION}\n`);
        return 0;
      case '--help':
      case '-h':
      case 'help':
        process.stdout.write(`${HELP}\n`);
        return 0;
      default:
        process.stderr.write(`context-hub: unknown command "${command}"\n\n${HELP}\n`);
        return 2;
    }
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`context-hub: ${error.message}\n`);
      return 78;
    }
    if (error instanceof StartupError) {
      process.stderr.write(`context-hub: ${error.message}\n`);
      return error.exitCode;
    }
    // A defect: one line for the operator; the stack only when asked for (logs carry none).
    const { message, code } = error as { message?: string; code?: unknown };
    process.stderr.write(
      `context-hub: ${command} failed: ${message ?? String(error)}${typeof code === 'string' ? ` (${code})` : ''}\n`,
    );
    if (/^(debug|trace)$/.test(process.env.LOG_LEVEL ?? '')) process.stderr.write(`${(error as Error).stack ?? ''}\n`);
    else process.stderr.write('context-hub: run with LOG_LEVEL=debug to see where it failed\n');
    return 1;
  }
}

/** What the listener's failure means for the operator, when it is one they can fix. */
function listenError(config: Config, error: unknown): unknown {
  const where = `${config.host}:${config.port}`;
  switch ((error as { code?: string }).code) {
    case 'EADDRINUSE':
      return new StartupError(
        'address_in_use',
        `${where} is already in use (another context-hub?): stop that process or set PORT`,
        75,
      );
    case 'EACCES':
      return new StartupError(
        'listen_forbidden',
        `not permitted to listen on ${where} (ports below 1024 need privileges): set PORT`,
        77,
      );
    case 'EADDRNOTAVAIL':
      return new StartupError('address_unavailable', `${config.host} is not an address of this machine: set HOST`, 69);
    default:
      return error;
  }
}

async function serve(config: Config): Promise<number> {
  assertSecretsKeyForServing(config);
  const log = createLogger({ level: config.logLevel });
  log.info({ zod: zodRuntimeState() }, 'zod runtime');
  // Conformance fixtures are test support: loaded only when asked for, never otherwise.
  const mcpExtensions = config.mcpConformanceFixtures
    ? [(await import('../testing/conformance-fixtures.js')).registerConformanceFixtures]
    : [];
  // Opening the store and loading the service graph overlap: together they are most of a restart.
  const { openDatabase, embeddedDataDir } = await import('../platform/db/open.js');
  const [db, { createServiceApp }] = await Promise.all([openDatabase(config), loadServiceApp()]);
  const app = await createServiceApp({ config, logger: log, mcpExtensions, db }).catch(async (error: unknown) => {
    // Gives the embedded store's lock back (a refused migration, say) before the process ends.
    await db.close().catch(() => undefined);
    throw error;
  });
  if (!config.databaseUrl && (await app.services.demo.isEmpty())) {
    const seeded = await app.services.demo.run(app.systemContext());
    log.info(seeded, 'first start on an empty embedded store: demo project created');
  }
  let url: string;
  try {
    url = await app.listen();
  } catch (error) {
    await app.close();
    await db.close();
    throw listenError(config, error);
  }
  // `context-hub backup` finds a running embedded store's owner through its lock file.
  if (!config.databaseUrl) recordListenUrl(embeddedDataDir(config), url);
  log.info({ url, mcp: `${url}/mcp`, store: app.db.kind, auth: config.authMode }, 'context-hub serving');
  await waitForShutdown(async () => {
    log.info('shutting down');
    await app.close();
    await db.close();
  });
  return 0;
}

async function worker(config: Config): Promise<number> {
  if (!config.databaseUrl) {
    throw new ConfigError(
      'DATABASE_URL',
      undefined,
      'required by `context-hub worker`: the embedded store belongs to the serve process; workers share a PostgreSQL',
    );
  }
  assertSecretsKeyForServing(config);
  const log = createLogger({ level: config.logLevel });
  log.info({ zod: zodRuntimeState() }, 'zod runtime');
  const { startWorker } = await import('../platform/jobs/worker.js');
  const { createServiceApp } = await import('../app/service-app.js');
  const stop = await startWorker(() => createServiceApp({ config, logger: log, workJobs: true }), log);
  await waitForShutdown(stop);
  return 0;
}

async function migrateCommand(config: Config): Promise<number> {
  const { openDatabase } = await import('../platform/db/open.js');
  const { migrate } = await import('../platform/db/migrate.js');
  const db = await openDatabase(config);
  try {
    const report = await migrate(db);
    process.stdout.write(
      report.applied.length
        ? `applied ${report.applied.length} migration(s): ${report.applied.join(', ')}\n`
        : `up to date (${report.alreadyApplied} applied)\n`,
    );
    if (report.functions.length)
      process.stdout.write(`applied ${report.functions.length} function file(s): ${report.functions.join(', ')}\n`);
  } finally {
    await db.close();
  }
  return 0;
}

async function searchReindexCommand(args: string[], config: Config): Promise<number> {
  const { openDatabase } = await import('../platform/db/open.js');
  const { migrate } = await import('../platform/db/migrate.js');
  const { reindexSearch } = await import('../modules/search/index.js');
  const at = args.indexOf('--project');
  const projectId = at >= 0 ? args[at + 1] : undefined;
  if (at >= 0 && !projectId) {
    process.stderr.write('context-hub: search-reindex --project needs a project id\n');
    return 2;
  }
  const db = await openDatabase(config);
  try {
    await migrate(db);
    return await reindexSearch(db, { projectId, check: args.includes('--check') }, (line) =>
      process.stdout.write(`${line}\n`),
    );
  } finally {
    await db.close();
  }
}

/** export/import on a store that no process serves: the service graph over it, for the hub-files CLI. */
async function openHub(config: Config) {
  const { createServiceApp } = await loadServiceApp();
  const app = await createServiceApp({ config, logger: createLogger({ level: 'warn' }) });
  return { hubFiles: app.services.hubFiles, ctx: app.systemContext(), close: () => app.close() };
}

async function seedDemo(config: Config): Promise<number> {
  const { createServiceApp } = await loadServiceApp();
  const app = await createServiceApp({ config, logger: createLogger({ level: 'warn' }) });
  try {
    const result = await app.services.demo.run(app.systemContext());
    process.stdout.write(`demo project ${result.project} ready (${result.seeded.join(', ') || 'project only'})\n`);
  } finally {
    await app.close();
  }
  return 0;
}

function waitForShutdown(stop: () => Promise<void>): Promise<void> {
  return new Promise((resolve) => {
    let stopping = false;
    const onSignal = () => {
      if (stopping) return;
      stopping = true;
      void stop().finally(resolve);
    };
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
  });
}
