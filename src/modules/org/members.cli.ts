import { OPERATOR } from '../../platform/auth/actor.js';
import { ROLES, type Role } from '../../platform/auth/permissions.js';
import { type Clock, systemClock } from '../../platform/clock.js';
import type { Database } from '../../platform/db/database.js';
import type { Config } from '../../platform/config.js';
import { migrate } from '../../platform/db/migrate.js';
import { openDatabase } from '../../platform/db/open.js';
import { AppError } from '../../platform/errors.js';
import { ChangeFeed } from '../../platform/events/change-feed.js';
import { createLogger } from '../../platform/logger.js';
import type { MemberChanges, MembersService } from './members.service.js';

export const MEMBERS_HELP = `Usage: context-hub members add [--role viewer|editor|admin|owner] [--email <email>] <subject>
       context-hub members list
Adds (or changes the role of) an organization member; <subject> is the JWT sub of the identity.
The first owner can also be named with ORG_OWNER_SUBJECT. On the embedded store, stop \`serve\` first
(the store belongs to one process) or use the REST API (/api/org/members).`;

function parseAdd(args: string[]): { subject: string; role: Role; email?: string } | string {
  let role: Role = 'viewer';
  let email: string | undefined;
  const rest: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--role') {
      const value = args[++i];
      if (!value || !(ROLES as readonly string[]).includes(value)) return `--role must be one of ${ROLES.join(', ')}`;
      role = value as Role;
    } else if (arg === '--email') {
      email = args[++i];
      if (!email) return '--email needs a value';
    } else if (arg.startsWith('--')) return `unknown option ${arg}`;
    else rest.push(arg);
  }
  if (rest.length !== 1) return 'name exactly one <subject>';
  return { subject: rest[0]!, role, ...(email ? { email } : {}) };
}

/** `context-hub members …`: organization members from the command line (the first owner, mostly). */
export async function membersCommand(
  args: string[],
  config: Config,
  /** The members service as the app's wiring builds it (src/app/org-services.ts). */
  buildMembers: (deps: { db: Database; clock: Clock; changes: MemberChanges }) => MembersService,
): Promise<number> {
  const [sub, ...rest] = args;
  if (sub !== 'add' && sub !== 'list') {
    process.stderr.write(`${MEMBERS_HELP}\n`);
    return 2;
  }
  const parsed = sub === 'add' ? parseAdd(rest) : undefined;
  if (typeof parsed === 'string') {
    process.stderr.write(`context-hub members add: ${parsed}\n\n${MEMBERS_HELP}\n`);
    return 2;
  }
  const log = createLogger({ level: 'warn' });
  const db = await openDatabase(config);
  try {
    await migrate(db);
    // A role change here reaches the running replicas' MCP clients (PostgreSQL: NOTIFY at commit).
    const org = { members: buildMembers({ db, clock: systemClock, changes: new ChangeFeed(db, log) }) };
    const ctx = { actor: { ...OPERATOR, subject: 'cli' }, requestId: 'cli', clock: systemClock, log };
    if (sub === 'list') {
      for (let cursor: string | undefined, first = true; first || cursor; first = false) {
        const page = await org.members.list(ctx, { limit: 500, cursor });
        for (const m of page.items) {
          const grants = m.grants.map((g) => `${g.project_id}:${g.role}`).join(',');
          process.stdout.write(`${m.subject}\t${m.role}\t${m.email ?? '-'}\t${grants || '-'}\n`);
        }
        cursor = page.next_cursor ?? undefined;
      }
      return 0;
    }
    const { subject, role, email } = parsed!;
    if (role === 'owner') {
      const result = await org.members.ensureOwner(ctx, subject, email);
      process.stdout.write(
        `${subject} is an owner${result.created ? ' (added)' : result.promoted ? ' (promoted)' : ' (unchanged)'}\n`,
      );
      return 0;
    }
    try {
      await org.members.create(ctx, { subject, role, ...(email ? { email } : {}) });
      process.stdout.write(`${subject} added as ${role}\n`);
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== 'member_exists') throw error;
      await org.members.update(ctx, subject, { role, ...(email ? { email } : {}) });
      process.stdout.write(`${subject} is now ${role}\n`);
    }
    return 0;
  } catch (error) {
    if (error instanceof AppError) {
      process.stderr.write(`context-hub members: ${error.code}: ${error.message}\n`);
      return 1;
    }
    throw error;
  } finally {
    await db.close();
  }
}
