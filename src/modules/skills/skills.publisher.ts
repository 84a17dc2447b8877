import type { ServerEvent } from '@modelcontextprotocol/server';
import { randomBytes } from 'node:crypto';
import type { RequestContext } from '../../platform/context/request-context.js';
import type { SqlExecutor } from '../../platform/db/database.js';
import {
  authorColumns,
  type PendingReview,
  type VersionAuthor,
  type WriteGate,
} from '../context-hub/context-hub.authorship.js';
import type { ProjectRow } from '../projects/projects.service.js';
import { mergeReferences, parseAcceptance, parseReferences, parseSteps } from './skills.parse.js';
import { presentSkill } from './skills.presenter.js';
import * as repo from './skills.repo.js';
import type { AddSkillInput, SkillOutput } from './skills.schemas.js';

/** Where Skill changes are announced (the change feed): MCP clients hear their prompt list changed. */
export interface SkillChanges {
  publishIn(tx: SqlExecutor, event: ServerEvent): Promise<void>;
}

/** What a SKILL.md file adds to a version beyond its fields (kept so an export gives it back). */
export interface FrontmatterExtras {
  frontmatterRaw: string | null;
  extra: Record<string, unknown>;
}

const PROMPTS_CHANGED: ServerEvent = { kind: 'prompts_list_changed' };

/**
 * What a Skill write becomes once its grant and limits are checked: under the project's write
 * policy (issue 24) a proposal, otherwise the next version, parsed and stored in the caller's
 * transaction and announced from inside it. Every path that changes the Skills a prompt list shows
 * (add, update, restore, an approved proposal, a delete, an import) goes through here.
 */
export class SkillPublisher {
  private gate: WriteGate | undefined;
  private changes: SkillChanges | undefined;

  /** Attaches the project write policy (the proposals module); without one every write publishes. */
  governWith(gate: WriteGate): void {
    this.gate = gate;
  }

  /**
   * Attaches the change feed: every write tells every replica's MCP sessions and subscriptions that
   * the prompt list changed (issue 31), from inside the write's transaction, so it is heard once it
   * is readable.
   */
  announceWith(changes: SkillChanges): void {
    this.changes = changes;
  }

  async announce(tx: SqlExecutor): Promise<void> {
    await this.changes?.publishIn(tx, PROMPTS_CHANGED);
  }

  /** The proposal a governed write becomes, or undefined when the write publishes at once. */
  async proposeIfGoverned(
    db: SqlExecutor,
    ctx: RequestContext,
    project: ProjectRow,
    input: AddSkillInput,
  ): Promise<PendingReview | undefined> {
    if (!this.gate || this.gate.decide(ctx, project) === 'publish') return undefined;
    const head = await repo.findHead(db, project.id, input.name);
    const { project_id: _project, name: _name, ...fields } = input;
    return this.gate.propose(ctx, project, {
      kind: 'skill',
      key: input.name,
      base_version: head && !head.deleted_at ? head.version : null,
      fields,
    });
  }

  /** Writes `input` as the Skill's next version (version 1 for a new name) in `tx`, and announces it. */
  async writeIn(
    tx: SqlExecutor,
    ctx: RequestContext,
    projectId: string,
    input: AddSkillInput,
    file: FrontmatterExtras,
    author: VersionAuthor,
  ): Promise<SkillOutput> {
    const steps = parseSteps(input.body_md);
    const references = mergeReferences(parseReferences(input.body_md), input.mdm_references);
    const acceptance = input.acceptance ?? parseAcceptance(input.body_md);
    const now = ctx.clock.now();
    const bumped = await repo.bumpHead(tx, {
      id: `sk_${randomBytes(8).toString('hex')}`,
      project_id: projectId,
      name: input.name,
      description: input.description,
      body_md: input.body_md,
      mdm_references: references,
      now,
    });
    const row: repo.SkillVersionRow = {
      skill_id: bumped.id,
      version: bumped.version,
      name: input.name,
      description: input.description,
      body_md: input.body_md,
      steps,
      mdm_references: references,
      acceptance,
      metadata: input.metadata ?? {},
      frontmatter_extra: file.extra,
      frontmatter_raw: file.frontmatterRaw,
      ...authorColumns(author, now),
    };
    await repo.insertVersion(tx, row);
    await this.announce(tx);
    const head = (await repo.findHead(tx, projectId, input.name))!;
    return presentSkill(head, row, await repo.existingKeys(tx, projectId, references));
  }
}
