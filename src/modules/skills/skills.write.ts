import type { ServerEvent } from '@modelcontextprotocol/server';
import { randomBytes } from 'node:crypto';
import type { SqlExecutor } from '../../platform/db/database.js';
import { authorColumns, type VersionAuthor } from '../documents/index.js';
import { argumentDeclarations, assertStringMetadata, moveLegacyArguments } from './skills.arguments.js';
import { mergeReferences, parseAcceptance, parseReferences, parseSteps } from './skills.parse.js';
import { presentSkill } from './skills.presenter.js';
import * as repo from './skills.repo.js';
import type { AddSkillInput, SkillOutput } from './skills.schemas.js';

/** Where Skill changes are announced (the change feed): MCP clients hear their prompt list changed. */
export interface SkillChanges {
  publishIn(tx: SqlExecutor, event: ServerEvent): Promise<void>;
}

export const PROMPTS_CHANGED: ServerEvent = { kind: 'prompts_list_changed' };

/** What a SKILL.md file adds to a version beyond its fields (kept so an export gives it back). */
export interface FrontmatterExtras {
  frontmatterRaw: string | null;
  extra: Record<string, unknown>;
}

/**
 * Writes `input` as the Skill's next version (version 1 for a new name) in `tx`: its body parsed
 * into steps, acceptance and references as every write parses it. The caller announces it.
 */
export async function writeSkillIn(
  tx: SqlExecutor,
  now: Date,
  projectId: string,
  input: AddSkillInput,
  file: FrontmatterExtras,
  author: VersionAuthor,
): Promise<SkillOutput> {
  // A legacy metadata.arguments list goes into the body, where the Agent Skills format allows it.
  const moved = moveLegacyArguments({
    metadata: input.metadata ?? {},
    body_md: input.body_md,
    frontmatter_raw: file.frontmatterRaw,
  });
  assertStringMetadata(moved.metadata);
  input = { ...input, metadata: moved.metadata, body_md: moved.body_md };
  file = { ...file, frontmatterRaw: moved.frontmatter_raw };
  const steps = parseSteps(input.body_md);
  const references = mergeReferences(parseReferences(input.body_md), input.mdm_references);
  const acceptance = input.acceptance ?? parseAcceptance(input.body_md);
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
    prompt_arguments: argumentDeclarations(input.body_md, input.metadata ?? {}, file.extra),
    ...authorColumns(author, now),
  };
  await repo.insertVersion(tx, row);
  const head = (await repo.findHead(tx, projectId, input.name))!;
  return presentSkill(head, row, await repo.existingKeys(tx, projectId, references));
}
