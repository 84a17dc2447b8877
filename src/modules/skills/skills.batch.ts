import { randomBytes } from 'node:crypto';
import { batches, WRITE_BATCH } from '../../platform/batches.js';
import type { SqlExecutor } from '../../platform/db/database.js';
import type { Pacer } from '../../platform/pacer.js';
import { authorColumns, type VersionAuthor } from '../context-hub/context-hub.authorship.js';
import { mergeReferences, parseAcceptance, parseReferences, parseSteps } from './skills.parse.js';
import * as repo from './skills.repo.js';
import type { SkillFile } from './skills.skillmd.js';

/**
 * Many SKILL.md files, each as the next version (or a new skill), in the caller's transaction (an
 * import): parsed as a single write parses them (steps, acceptance, references), written two
 * statements per batch, the event loop turning between batches (`pace`).
 */
export async function writeSkillFilesIn(
  tx: SqlExecutor,
  now: Date,
  projectId: string,
  files: SkillFile[],
  author: VersionAuthor,
  pace: Pacer,
): Promise<Map<string, { id: string; version: number }>> {
  const written = new Map<string, { id: string; version: number }>();
  for (const batch of batches(files, WRITE_BATCH, (f) => f.body.length + f.frontmatterRaw.length)) {
    const parsed = batch.map((file) => ({
      file,
      steps: parseSteps(file.body),
      // As a single write reads them (SkillsService.writeIn): a file has no references beyond its body.
      references: mergeReferences(parseReferences(file.body), undefined),
      acceptance: parseAcceptance(file.body),
    }));
    await pace();
    const heads = await repo.bumpHeads(
      tx,
      projectId,
      now,
      parsed.map(({ file, references }) => ({
        id: `sk_${randomBytes(8).toString('hex')}`,
        name: file.name,
        description: file.description,
        body_md: file.body,
        mdm_references: references,
      })),
    );
    await pace();
    const byName = new Map(heads.map((h) => [h.name, h]));
    await repo.insertVersions(
      tx,
      parsed.map(({ file, steps, references, acceptance }): repo.SkillVersionRow => {
        const head = byName.get(file.name)!;
        written.set(file.name, { id: head.id, version: head.version });
        return {
          skill_id: head.id,
          version: head.version,
          name: file.name,
          description: file.description,
          body_md: file.body,
          steps,
          mdm_references: references,
          acceptance,
          metadata: file.metadata,
          frontmatter_extra: file.extra,
          frontmatter_raw: file.frontmatterRaw,
          ...authorColumns(author, now),
        };
      }),
    );
    await pace();
  }
  return written;
}
