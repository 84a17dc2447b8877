import { z } from 'zod';
import { actorCanOnProject } from '../../platform/auth/actor.js';
import type { RequestContext } from '../../platform/context/request-context.js';
import type { Database, SqlExecutor } from '../../platform/db/database.js';
import { ConflictError, NotFoundError } from '../../platform/errors.js';
import { decodeCursor, pageOf, type PageQuery } from '../../platform/pagination.js';
import { presentAuthor, type PendingReview, type VersionAuthor, type WriteGate } from './documents.authorship.js';
import type { ProjectLimits } from '../org/index.js';
import type { ProjectRow } from '../projects/index.js';
import type { DocumentKind } from './documents.kind.js';
import * as repo from './documents.repo.js';

/** One kind of versioned document, as the lifecycle needs to know it. */
export interface DocumentDescriptor<H extends repo.DocumentHead> {
  kind: DocumentKind;
  tables: repo.DocumentTables;
  /** How messages name the kind at the start of a sentence ("Skill", "Knowledge"). */
  title: string;
  /** The head's current version number (`version` on a Skill, `version_number` on Knowledge). */
  currentVersion(head: H): number;
  /** How a refused restore names the document. */
  restoreLabel(key: string): string;
  notFound(key: string, projectId: string): NotFoundError;
}

export interface DocumentLifecycleDeps {
  db: Database;
  /** The project write policy; without one every write publishes. */
  gate?: WriteGate | undefined;
  /** Entitlement limits; absent in unit wiring that does not enforce them. */
  limits?: ProjectLimits | undefined;
  /** Told, inside the write's transaction, whenever the set of live documents or their content changes. */
  changed?: ((tx: SqlExecutor) => Promise<void>) | undefined;
}

/** What a write became: the published document, or the proposal waiting for review. */
export type Landed<O> = { published: O; pending?: undefined } | { published?: undefined; pending: PendingReview };

/**
 * The lifecycle Skills and Knowledge share: a head row and numbered version rows, heads found,
 * read (deleted ones by admins only) and deleted, versions paged, compared and restored, writes
 * sent to review when the project's policy says so. Each kind configures it with its descriptor
 * and keeps only what really differs: its fields, how they are parsed and presented.
 */
export class VersionedDocuments<H extends repo.DocumentHead, V> {
  constructor(
    private readonly d: DocumentDescriptor<H>,
    private readonly deps: DocumentLifecycleDeps,
  ) {}

  get db(): Database {
    return this.deps.db;
  }

  async head(db: SqlExecutor, projectId: string, key: string): Promise<H | undefined> {
    return repo.findHead<H>(db, this.d.tables, projectId, key);
  }

  /** A live document by id or key, with no grant check (the taxonomy links to it in a resolved project). */
  async findLive(projectId: string, ref: string): Promise<H | undefined> {
    return repo.findLiveByIdOrKey<H>(this.db, this.d.tables, projectId, ref);
  }

  async version(db: SqlExecutor, head: H, version: number): Promise<V | undefined> {
    return repo.findVersion<V>(db, this.d.tables, head.id, version);
  }

  async listLive(projectId: string, page: PageQuery) {
    const after = decodeCursor(page.cursor, z.string());
    const rows = await repo.listLive<H>(this.db, this.d.tables, projectId, { after, limit: page.limit + 1 });
    return pageOf(rows, page.limit, (r) => (r as Record<string, unknown>)[this.d.tables.key]);
  }

  /** The live head; a missing or deleted one is not found. */
  async liveHead(projectId: string, key: string): Promise<H> {
    const head = await this.head(this.db, projectId, key);
    if (!head || head.deleted_at) throw this.d.notFound(key, projectId);
    return head;
  }

  /** The head as the caller may read it: a deleted document's versions stay readable to admins only. */
  async readableHead(ctx: RequestContext, projectId: string, key: string): Promise<H> {
    const head = await this.head(this.db, projectId, key);
    if (!head || (head.deleted_at && !actorCanOnProject(ctx.actor, projectId, 'admin')))
      throw this.d.notFound(key, projectId);
    return head;
  }

  /** One version of a read (default: current); a missing one says which exist. */
  async readVersion(head: H, key: string, version?: number): Promise<V> {
    const current = this.d.currentVersion(head);
    const row = await this.version(this.db, head, version ?? current);
    if (!row) {
      throw this.versionNotFound(key, version, current, {
        hint: `Call again without version, or with a version from 1 to ${current}.`,
      });
    }
    return row;
  }

  /** One version a diff or restore names. */
  async versionRow(head: H, key: string, version: number): Promise<V> {
    const current = this.d.currentVersion(head);
    const row = await this.version(this.db, head, version);
    if (!row) throw this.versionNotFound(key, version, current, { hint: `Use a version from 1 to ${current}.` });
    return row;
  }

  private versionNotFound(key: string, version: number | undefined, current: number, options: { hint: string }) {
    return new NotFoundError(
      `${this.d.kind.kind}_version_not_found`,
      `${this.d.title} ${key} has no version ${version}; the current one is ${current}.`,
      options,
    );
  }

  /** The live head's version and one version presented, with no grant check (proposals: staleness and diffs). */
  async snapshot<O>(projectId: string, key: string, version: number | undefined, present: (head: H, row: V) => O) {
    const head = await this.head(this.db, projectId, key);
    if (!head || head.deleted_at) return undefined;
    const current = this.d.currentVersion(head);
    const row = await this.version(this.db, head, version ?? current);
    return { current_version: current, version: row ? present(head, row) : undefined };
  }

  /** A page of a document's versions, oldest first (the kind lists its own columns). */
  async versionPage<R>(
    head: H,
    page: PageQuery,
    list: (db: SqlExecutor, headId: string, page: { after?: number | undefined; limit: number }) => Promise<R[]>,
    versionOf: (row: R) => number,
  ) {
    const after = decodeCursor(page.cursor, z.number().int());
    const rows = await list(this.db, head.id, { after, limit: page.limit + 1 });
    return pageOf(rows, page.limit, versionOf);
  }

  /** The two versions a diff compares (default: the current one and the one before). */
  async diffRows(head: H, key: string, query: { from?: number | undefined; to?: number | undefined }) {
    const to = query.to ?? this.d.currentVersion(head);
    const from = query.from ?? Math.max(1, to - 1);
    const [older, newer] = await Promise.all([this.versionRow(head, key, from), this.versionRow(head, key, to)]);
    return { from, to, older, newer };
  }

  /** The version a restore writes again: any but the current one. */
  async restorable(projectId: string, key: string, version: number): Promise<V> {
    const head = await this.liveHead(projectId, key);
    const current = this.d.currentVersion(head);
    if (version === current) {
      throw new ConflictError(
        'version_is_current',
        `Version ${version} of ${this.d.restoreLabel(key)} is its current version.`,
        { hint: `Restore a version from 1 to ${current - 1}; GET …/versions lists them.` },
      );
    }
    return this.versionRow(head, key, version);
  }

  async assertCanAdd(projectId: string, key: string): Promise<void> {
    await this.deps.limits?.assertCanAddContextObject(projectId, this.d.kind.kind, key);
  }

  /** The proposal a governed write becomes, or undefined when the write publishes at once. */
  async proposeIfGoverned(
    ctx: RequestContext,
    project: ProjectRow,
    key: string,
    fields: Record<string, unknown>,
  ): Promise<PendingReview | undefined> {
    const gate = this.deps.gate;
    if (!gate || gate.decide(ctx, project) === 'publish') return undefined;
    const head = await this.head(this.db, project.id, key);
    return gate.propose(ctx, project, {
      kind: this.d.kind.kind,
      key,
      base_version: head && !head.deleted_at ? this.d.currentVersion(head) : null,
      fields,
    });
  }

  /** A proposal under the project's policy, otherwise `write` in its own transaction. */
  async land<O>(
    ctx: RequestContext,
    project: ProjectRow,
    key: string,
    fields: Record<string, unknown>,
    write: (tx: SqlExecutor) => Promise<O>,
  ): Promise<Landed<O>> {
    const pending = await this.proposeIfGoverned(ctx, project, key, fields);
    if (pending) return { pending };
    return { published: await this.db.transaction(write) };
  }

  /**
   * Publishes an approved proposal as the next version; `within` (the proposal's decision) runs in
   * the same transaction, so both land or neither does.
   */
  async publishApproved<O>(
    projectId: string,
    key: string,
    write: (tx: SqlExecutor) => Promise<O>,
    versionOf: (written: O) => number,
    within: (tx: SqlExecutor, version: number) => Promise<void>,
  ): Promise<O> {
    await this.assertCanAdd(projectId, key);
    return this.db.transaction(async (tx) => {
      const written = await write(tx);
      await within(tx, versionOf(written));
      return written;
    });
  }

  async announce(tx: SqlExecutor): Promise<void> {
    await this.deps.changed?.(tx);
  }

  async remove(ctx: RequestContext, projectId: string, key: string): Promise<void> {
    const head = await this.liveHead(projectId, key);
    await this.db.transaction(async (tx) => {
      await repo.markDeleted(tx, this.d.tables, head.id, ctx.clock.now());
      await this.announce(tx);
    });
  }

  /** Deletes documents in the caller's transaction (an import with prune); no grant check. */
  async deleteManyIn(tx: SqlExecutor, ids: string[], now: Date): Promise<void> {
    if (ids.length === 0) return;
    await repo.markManyDeleted(tx, this.d.tables, ids, now);
    await this.announce(tx);
  }
}

/** What a published version answers to the proposal that asked for it. */
export interface ApprovedWrite {
  projectId: string;
  key: string;
  fields: Record<string, unknown>;
  author: VersionAuthor;
  within: (tx: SqlExecutor, version: number) => Promise<void>;
}

/**
 * What the proposals module needs of each kind: the current version (staleness), a version's body
 * (diffs) and the publication of an approved proposal. Each kind's service implements it.
 */
export interface ReviewedDocuments {
  readonly kind: DocumentKind;
  snapshot(
    projectId: string,
    key: string,
    version?: number,
  ): Promise<{ current_version: number; version: { body_md: string } | undefined } | undefined>;
  publishProposal(ctx: RequestContext, write: ApprovedWrite): Promise<unknown>;
}

/** Who wrote a version and when, as every version list presents it. */
export function versionAuthorship(row: Parameters<typeof presentAuthor>[0] & { created_at: Date; created_by: string }) {
  return { created_at: row.created_at.toISOString(), created_by: row.created_by, author: presentAuthor(row) };
}
