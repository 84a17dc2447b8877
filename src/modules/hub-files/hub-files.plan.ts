import type { SheetFromFile, SkillFromFile } from './hub-files.format.js';
import type { FileProblem } from './hub-files.problems.js';
import { type KeyEntry, type LinkEntry, linkIdentity, type TaxonomyFile } from './hub-files.taxonomy.js';

/** The hub as it is: what an import compares a folder with. */
export interface HubState {
  skills: Map<string, { id: string; version: number; text: string }>;
  knowledge: Map<string, { id: string; version: number; title: string; owner: string | null; body_md: string }>;
  keys: Map<string, KeyEntry>;
  links: (LinkEntry & { id: string })[];
}

/** A folder read without problems (hub-files.format): the hub as it should be. */
export interface Folder {
  skills: Map<string, SkillFromFile>;
  knowledge: Map<string, SheetFromFile>;
  /** null: the folder has no taxonomy.yaml, so keys and links are left as they are. */
  taxonomy: TaxonomyFile | null;
  /** taxonomy.yaml is there but unreadable (reported): which keys exist is unknown, so references go unchecked. */
  taxonomyUnreadable: boolean;
}

export interface Plan {
  skills: { create: SkillFromFile[]; update: SkillFromFile[]; remove: string[]; unchanged: number; kept: number };
  knowledge: { create: SheetFromFile[]; update: SheetFromFile[]; remove: string[]; unchanged: number; kept: number };
  keys: { create: KeyEntry[]; update: KeyEntry[]; remove: string[]; unchanged: number; kept: number };
  links: { add: LinkEntry[]; remove: (LinkEntry & { id: string })[]; unchanged: number; kept: number };
}

const sameKey = (a: KeyEntry, b: KeyEntry) =>
  a.label === b.label &&
  a.description === b.description &&
  a.parent === b.parent &&
  JSON.stringify(a.synonyms) === JSON.stringify(b.synonyms);

/** Parents before children: each key after the keys of `order` it descends from. */
function parentsFirst(keys: KeyEntry[]): KeyEntry[] {
  const byKey = new Map(keys.map((k) => [k.key, k]));
  const out: KeyEntry[] = [];
  const placed = new Set<string>();
  const place = (key: KeyEntry, depth: number) => {
    if (placed.has(key.key) || depth > byKey.size) return;
    const parent = key.parent ? byKey.get(key.parent) : undefined;
    if (parent) place(parent, depth + 1);
    placed.add(key.key);
    out.push(key);
  };
  for (const key of keys) place(key, 0);
  return out;
}

function depthOf(key: string, parents: Map<string, string | null>): number {
  let depth = 0;
  for (let at = parents.get(key); at && depth <= parents.size; at = parents.get(at)) depth += 1;
  return depth;
}

/**
 * What applying `folder` changes, and every reference it would leave dangling (as problems):
 * parents and link keys that no key will be, link sources that no object will be, `[[key]]`s in
 * the Skills it writes that name no key. Objects the folder does not hold stay unless `prune`.
 * `sourcesMustExist`: links may only name objects that exist now (with proposals, the folder's new
 * objects are not written).
 */
export function planImport(
  state: HubState,
  folder: Folder,
  options: { prune: boolean; sourcesMustExist: boolean },
  problems: FileProblem[],
): Plan {
  const { prune } = options;
  const plan: Plan = {
    skills: { create: [], update: [], remove: [], unchanged: 0, kept: 0 },
    knowledge: { create: [], update: [], remove: [], unchanged: 0, kept: 0 },
    keys: { create: [], update: [], remove: [], unchanged: 0, kept: 0 },
    links: { add: [], remove: [], unchanged: 0, kept: 0 },
  };
  const taxonomy = folder.taxonomy;
  const targetKeys = new Map<string, KeyEntry>(taxonomy && prune ? [] : state.keys);
  for (const key of taxonomy?.keys ?? []) targetKeys.set(key.key, key);

  if (taxonomy) {
    for (const key of taxonomy.keys) {
      const current = state.keys.get(key.key);
      if (!current) plan.keys.create.push(key);
      else if (!sameKey(current, key)) plan.keys.update.push(key);
      else plan.keys.unchanged += 1;
      if (key.parent !== null && !targetKeys.has(key.parent)) {
        const where = prune ? 'in taxonomy.yaml' : 'in taxonomy.yaml or the project';
        problems.push({
          file: 'taxonomy.yaml',
          line: key.line,
          message: `key ${key.key}: parent ${key.parent} is not a business key ${where}`,
        });
        continue;
      }
      const seen = new Set([key.key]);
      for (let at = key.parent; at !== null; at = targetKeys.get(at)?.parent ?? null) {
        if (!seen.has(at)) {
          seen.add(at);
          continue;
        }
        problems.push({ file: 'taxonomy.yaml', line: key.line, message: `key ${key.key}: its parents make a cycle` });
        break;
      }
    }
    plan.keys.create = parentsFirst(plan.keys.create);
    const removed = [...state.keys.keys()].filter((k) => !targetKeys.has(k));
    const parents = new Map([...state.keys.values()].map((k) => [k.key, k.parent]));
    plan.keys.remove = removed.sort((a, b) => depthOf(b, parents) - depthOf(a, parents));
    const listed = new Set(taxonomy.keys.map((k) => k.key));
    plan.keys.kept = prune ? 0 : [...state.keys.keys()].filter((k) => !listed.has(k)).length;
  } else {
    plan.keys.kept = state.keys.size;
  }

  for (const [name, skill] of folder.skills) {
    const current = state.skills.get(name);
    if (current && current.text === skill.text) {
      plan.skills.unchanged += 1;
      continue;
    }
    (current ? plan.skills.update : plan.skills.create).push(skill);
    for (const ref of folder.taxonomyUnreadable ? [] : skill.references) {
      if (!targetKeys.has(ref.key))
        problems.push({
          file: skill.file,
          line: ref.line,
          message: `[[${ref.key}]] names no business key (add it to taxonomy.yaml)`,
        });
    }
  }
  for (const [topicId, sheet] of folder.knowledge) {
    const current = state.knowledge.get(topicId);
    const same =
      current && current.title === sheet.title && current.owner === sheet.owner && current.body_md === sheet.body_md;
    if (same) plan.knowledge.unchanged += 1;
    else (current ? plan.knowledge.update : plan.knowledge.create).push(sheet);
  }
  const absentSkills = [...state.skills.keys()].filter((name) => !folder.skills.has(name));
  const absentSheets = [...state.knowledge.keys()].filter((id) => !folder.knowledge.has(id));
  if (prune) {
    plan.skills.remove = absentSkills;
    plan.knowledge.remove = absentSheets;
  } else {
    plan.skills.kept = absentSkills.length;
    plan.knowledge.kept = absentSheets.length;
  }

  if (taxonomy) {
    const stays = (type: 'skill' | 'knowledge', name: string) => {
      const now = type === 'skill' ? state.skills.has(name) : state.knowledge.has(name);
      const inFolder = type === 'skill' ? folder.skills.has(name) : folder.knowledge.has(name);
      if (options.sourcesMustExist) return now && (inFolder || !prune);
      return inFolder || (now && !prune);
    };
    const current = new Map(state.links.map((l) => [linkIdentity(l), l]));
    for (const link of taxonomy.links) {
      const bad: string[] = [];
      if (!stays(link.source_type, link.source)) bad.push(`no ${link.source_type} ${link.source}`);
      if (!targetKeys.has(link.key)) bad.push(`no business key ${link.key}`);
      if (bad.length > 0) {
        problems.push({ file: 'taxonomy.yaml', line: link.line, message: `link: there is ${bad.join(' and ')}` });
        continue;
      }
      if (current.delete(linkIdentity(link))) plan.links.unchanged += 1;
      else plan.links.add.push(link);
    }
    if (prune) plan.links.remove = [...current.values()];
    else plan.links.kept = current.size;
  } else {
    plan.links.kept = state.links.length;
  }
  return plan;
}
