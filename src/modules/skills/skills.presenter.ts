import { MAX_SUMMARY_LINE_CHARS, MAX_SUMMARY_LINES, truncateCodePoints } from '../../mcp/kit/envelope-limits.js';
import { presentAuthor } from '../documents/index.js';
import type { SkillHeadRow, SkillVersionRow } from './skills.repo.js';
import type { SkillOutput } from './skills.schemas.js';

export function presentSkill(
  head: Pick<SkillHeadRow, 'id' | 'project_id' | 'version' | 'deleted_at'> & Partial<SkillHeadRow>,
  row: SkillVersionRow,
  knownKeys: Set<string>,
): SkillOutput {
  return {
    id: head.id,
    project_id: head.project_id,
    name: row.name,
    version: row.version,
    current_version: head.version,
    description: row.description,
    body_md: row.body_md,
    steps: row.steps,
    mdm_references: row.mdm_references,
    unresolved_references: row.mdm_references.filter((k) => !knownKeys.has(k)),
    acceptance: row.acceptance,
    metadata: row.metadata,
    created_at: row.created_at.toISOString(),
    created_by: row.created_by,
    author: presentAuthor(row),
    deleted: head.deleted_at !== null && head.deleted_at !== undefined,
  };
}

const SEPARATOR = ' · ';

/**
 * The step titles, numbered, packed into as few lines as the budget needs: one per line while
 * they fit, else several to a line. When even packed lines cannot hold them all, the first ones
 * and "K more steps in the app payload". A text-only agent can follow the procedure from this.
 */
export function packStepLines(titles: string[], maxLines: number, maxChars = MAX_SUMMARY_LINE_CHARS): string[] {
  const items = titles.map((t, i) => truncateCodePoints(`${i + 1}. ${t}`, maxChars));
  if (items.length <= maxLines) return items;
  const lines = pack(items, maxChars);
  if (lines.length <= maxLines) return lines;
  // Keep as many leading steps as fit together with the note on what was left out.
  let keep = lines.slice(0, maxLines).reduce((n, line) => n + line.split(SEPARATOR).length, 0);
  for (; keep >= 0; keep -= 1) {
    const packed = pack([...items.slice(0, keep), `${items.length - keep} more steps in the app payload`], maxChars);
    if (packed.length <= maxLines) return packed;
  }
  return [`${items.length} steps in the app payload`];
}

function pack(items: string[], maxChars: number): string[] {
  const lines: string[] = [];
  let current = '';
  for (const item of items) {
    const candidate = current ? `${current}${SEPARATOR}${item}` : item;
    if (Array.from(candidate).length <= maxChars) {
      current = candidate;
      continue;
    }
    lines.push(current);
    current = item;
  }
  if (current) lines.push(current);
  return lines;
}

export function procedureSummary(skill: SkillOutput): string[] {
  const head = [
    `Skill ${skill.name} v${skill.version}${skill.version !== skill.current_version ? ` (current is v${skill.current_version})` : ''}: ${skill.description}`,
    skill.steps.length > 0
      ? `Steps (${skill.steps.length}; full instructions in data.steps):`
      : 'No numbered steps: the procedure is in data.body_md.',
  ];
  const tail: string[] = [];
  if (skill.mdm_references.length > 0) {
    const unresolved =
      skill.unresolved_references.length > 0 ? ` (unresolved: ${skill.unresolved_references.join(', ')})` : '';
    tail.push(`Business keys: ${skill.mdm_references.join(', ')}${unresolved}`);
  }
  if (skill.acceptance.length > 0) tail.push(`Acceptance (${skill.acceptance.length}): ${skill.acceptance.join('; ')}`);
  if (skill.deleted) tail.push('This skill is deleted; you see it because you are an admin.');
  const budget = MAX_SUMMARY_LINES - head.length - tail.length;
  return [
    ...head,
    ...packStepLines(
      skill.steps.map((s) => s.title),
      budget,
    ),
    ...tail,
  ].map((l) => truncateCodePoints(l, MAX_SUMMARY_LINE_CHARS));
}
