import { randomBytes } from 'node:crypto';
import type { SqlExecutor } from '../../platform/db/database.js';
import type { Pacer } from '../../platform/pacer.js';
import { authorColumns, type VersionAuthor, writeDocumentsIn } from '../documents/index.js';
import { argumentDeclarations, moveLegacyArguments } from './skills.arguments.js';
import { mergeReferences, parseAcceptance, parseReferences, parseSteps } from './skills.parse.js';
import * as repo from './skills.repo.js';
import type { SkillFile } from './skills.skillmd.js';

/**
 * Many SKILL.md files, each as the next version (or a new skill), in the caller's transaction (an
 * import): parsed as a single write parses them (steps, acceptance, references).
 */
export async function writeSkillFilesIn(
  tx: SqlExecutor,
  now: Date,
  projectId: string,
  files: SkillFile[],
  author: VersionAuthor,
  pace: Pacer,
): Promise<Map<string, { id: string; version: number }>> {
  return writeDocumentsIn(
    files,
    {
      keyOf: (f) => f.name,
      weightOf: (f) => f.body.length + f.frontmatterRaw.length,
      prepare: (given) => {
        // As a single write does: a legacy metadata.arguments list goes into the body.
        const moved = moveLegacyArguments({
          metadata: given.metadata,
          body_md: given.body,
          frontmatter_raw: given.frontmatterRaw,
        });
        const file = {
          ...given,
          metadata: moved.metadata,
          body: moved.body_md,
          frontmatterRaw: moved.frontmatter_raw!,
        };
        return {
          file,
          steps: parseSteps(file.body),
          // As a single write reads them (writeSkillIn): a file has no references beyond its body.
          references: mergeReferences(parseReferences(file.body), undefined),
          acceptance: parseAcceptance(file.body),
        };
      },
      bumpHeads: (batch) =>
        repo.bumpHeads(
          tx,
          projectId,
          now,
          batch.map(({ file, references }) => ({
            id: `sk_${randomBytes(8).toString('hex')}`,
            name: file.name,
            description: file.description,
            body_md: file.body,
            mdm_references: references,
          })),
        ),
      headKey: (h) => h.name,
      idOf: (h) => h.id,
      versionOf: (h) => h.version,
      insertVersions: (rows) =>
        repo.insertVersions(
          tx,
          rows.map(
            ({ item: { file, steps, references, acceptance }, head }): repo.SkillVersionRow => ({
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
              prompt_arguments: argumentDeclarations(file.body, file.metadata, file.extra),
              ...authorColumns(author, now),
            }),
          ),
        ),
    },
    pace,
  );
}
