import { unifiedDiff } from '../../platform/line-diff.js';
import type { SkillStep } from './skills.parse.js';
import type { SkillVersionRow } from './skills.repo.js';
import { fieldChanges } from '../documents/index.js';
import type { ListChange, SkillDiffOutput, StepChange } from './skills.schemas.js';

/** What changed in a list of strings (acceptance items, references): by value, and whether kept ones moved. */
export function listChange(from: string[], to: string[]): ListChange {
  const kept = from.filter((item) => to.includes(item));
  const keptAfter = to.filter((item) => from.includes(item));
  return {
    added: to.filter((item) => !from.includes(item)),
    removed: from.filter((item) => !to.includes(item)),
    reordered: kept.some((item, i) => keptAfter[i] !== item),
  };
}

/**
 * Which matched steps kept their relative order: the longest chain of pairs increasing in both old
 * and new position, and of those the one whose steps moved least (so in a swap of two steps, the
 * one that stayed in place is not the one called moved). Quadratic, over a Skill's steps only.
 */
function keptInOrder(pairs: { i: number; j: number }[]): Set<number> {
  const count = pairs.map(() => 1);
  const shift = pairs.map((p) => Math.abs(p.i - p.j));
  const previous = pairs.map(() => -1);
  for (let n = 0; n < pairs.length; n++) {
    for (let m = 0; m < n; m++) {
      if (pairs[m]!.j >= pairs[n]!.j) continue;
      const c = count[m]! + 1;
      const s = shift[m]! + Math.abs(pairs[n]!.i - pairs[n]!.j);
      if (c > count[n]! || (c === count[n]! && s < shift[n]!)) {
        count[n] = c;
        shift[n] = s;
        previous[n] = m;
      }
    }
  }
  let best = -1;
  for (let n = 0; n < pairs.length; n++) {
    if (best === -1 || count[n]! > count[best]! || (count[n] === count[best] && shift[n]! < shift[best]!)) best = n;
  }
  const keep = new Set<number>();
  for (let n = best; n !== -1; n = previous[n]!) keep.add(n);
  return keep;
}

const titleKey = (step: SkillStep) => step.title.trim().toLowerCase();

/**
 * Steps matched across two versions: first by identical instruction, then by title (an edited
 * step). Unmatched old steps were removed, unmatched new ones added; a matched step "moved" when it
 * falls outside the longest run of matched steps that kept their relative order.
 */
export function stepChanges(from: SkillStep[], to: SkillStep[]): StepChange[] {
  const match = new Array<number>(to.length).fill(-1);
  const taken = new Set<number>();
  const pair = (same: (a: SkillStep, b: SkillStep) => boolean) => {
    to.forEach((step, j) => {
      if (match[j] !== -1) return;
      const i = from.findIndex((old, index) => !taken.has(index) && same(old, step));
      if (i === -1) return;
      match[j] = i;
      taken.add(i);
    });
  };
  pair((a, b) => a.instruction === b.instruction);
  pair((a, b) => titleKey(a) === titleKey(b));
  const pairs = to.flatMap((_, j) => (match[j] === -1 ? [] : [{ i: match[j]!, j }])).sort((p, q) => p.i - q.i);
  const inOrder = keptInOrder(pairs);
  const moved = new Set(pairs.filter((_, n) => !inOrder.has(n)).map((p) => p.j));
  const changes: StepChange[] = [];
  from.forEach((step, i) => {
    if (!taken.has(i))
      changes.push({
        change: 'removed',
        title: step.title,
        from_index: step.index,
        to_index: null,
        from_instruction: step.instruction,
        to_instruction: null,
      });
  });
  to.forEach((step, j) => {
    const i = match[j]!;
    const old = from[i];
    if (!old) {
      changes.push({
        change: 'added',
        title: step.title,
        from_index: null,
        to_index: step.index,
        from_instruction: null,
        to_instruction: step.instruction,
      });
      return;
    }
    const edited = old.instruction !== step.instruction;
    if (!edited && !moved.has(j)) return;
    changes.push({
      change: edited ? 'changed' : 'moved',
      title: step.title,
      from_index: old.index,
      to_index: step.index,
      from_instruction: old.instruction,
      to_instruction: step.instruction,
    });
  });
  return changes;
}

export function diffSkillVersions(name: string, from: SkillVersionRow, to: SkillVersionRow): SkillDiffOutput {
  return {
    name,
    from_version: from.version,
    to_version: to.version,
    unified_diff: unifiedDiff(from.body_md, to.body_md, {
      from: `skills/${name}/SKILL.md (v${from.version})`,
      to: `skills/${name}/SKILL.md (v${to.version})`,
    }),
    fields: fieldChanges([
      ['description', from.description, to.description],
      ['metadata', from.metadata, to.metadata],
    ]),
    steps: stepChanges(from.steps, to.steps),
    acceptance: listChange(from.acceptance, to.acceptance),
    references: listChange(from.mdm_references, to.mdm_references),
  };
}
