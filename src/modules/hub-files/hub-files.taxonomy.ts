import { isMap, isSeq, LineCounter, parseDocument, stringify, type YAMLMap } from 'yaml';
import { z } from 'zod';
import { TopicId } from '../knowledge/knowledge.schemas.js';
import { SkillName } from '../skills/skills.schemas.js';
import { BusinessKey, CreateKeyInput, RELATION_TYPES } from '../taxonomy/taxonomy.schemas.js';
import { byCodePoint, type FileProblem, plainData, TAXONOMY_FILE } from './hub-files.format.js';

/** A business key as taxonomy.yaml holds it. */
export interface KeyEntry {
  key: string;
  label: string;
  description: string | null;
  parent: string | null;
  synonyms: string[];
}

/** A link as taxonomy.yaml holds it: its source by name (Skill) or topic id (Knowledge), never by id. */
export interface LinkEntry {
  source_type: 'skill' | 'knowledge';
  source: string;
  relation_type: (typeof RELATION_TYPES)[number];
  key: string;
}

export interface TaxonomyFile {
  keys: (KeyEntry & { line: number })[];
  links: (LinkEntry & { line: number })[];
}

export const linkIdentity = (l: LinkEntry) => `${l.source_type}\u0000${l.source}\u0000${l.key}\u0000${l.relation_type}`;

/** taxonomy.yaml: keys by key, links by source, key and relation, so the same taxonomy gives the same bytes. */
export function renderTaxonomy(keys: KeyEntry[], links: LinkEntry[]): string {
  const keyDocs = [...keys]
    .sort((a, b) => byCodePoint(a.key, b.key))
    .map((k) => ({
      key: k.key,
      label: k.label,
      ...(k.description !== null ? { description: k.description } : {}),
      ...(k.parent !== null ? { parent: k.parent } : {}),
      ...(k.synonyms.length > 0 ? { synonyms: k.synonyms } : {}),
    }));
  const linkDocs = [...links]
    .sort((a, b) => byCodePoint(linkIdentity(a), linkIdentity(b)))
    .map((l) => ({ [l.source_type]: l.source, relation: l.relation_type, key: l.key }));
  return stringify({ keys: keyDocs, links: linkDocs }, { lineWidth: 0 });
}

const KeyItem = CreateKeyInput.omit({ project_id: true });
const LinkItem = z
  .object({
    skill: SkillName.optional(),
    knowledge: TopicId.optional(),
    relation: z.enum(RELATION_TYPES),
    key: BusinessKey,
  })
  .strict()
  .refine((l) => (l.skill === undefined) !== (l.knowledge === undefined), {
    message: 'names exactly one source: skill: <name> or knowledge: <topic_id>',
  });

/**
 * The valid entries of taxonomy.yaml (a problem for each invalid one), or undefined when the file
 * cannot be read at all (not YAML, not a mapping).
 */
export function readTaxonomy(text: string, problems: FileProblem[]): TaxonomyFile | undefined {
  const file = TAXONOMY_FILE;
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter });
  for (const error of doc.errors)
    problems.push({ file, line: error.linePos?.[0]?.line ?? 1, message: error.message.split('\n')[0]! });
  if (doc.errors.length > 0) return undefined;
  const lineOf = (node: { range?: [number, number, number] | null } | null | undefined, fallback = 1) =>
    node?.range ? counter.linePos(node.range[0]).line : fallback;
  const root = doc.contents;
  const out: TaxonomyFile = { keys: [], links: [] };
  if (root === null) return out;
  if (!isMap(root)) {
    problems.push({ file, line: lineOf(root), message: 'must be a mapping with keys: and links:' });
    return undefined;
  }
  for (const pair of root.items) {
    const name = (pair.key as { value?: unknown } | null)?.value;
    if (name !== 'keys' && name !== 'links')
      problems.push({
        file,
        line: lineOf(pair.key as never),
        message: `unknown section "${String(name)}" (keys, links)`,
      });
  }
  const items = (section: 'keys' | 'links'): YAMLMap[] => {
    const node = root.get(section, true);
    if (node === undefined || node === null) return [];
    if (!isSeq(node)) {
      problems.push({ file, line: lineOf(node as never), message: `${section} must be a list` });
      return [];
    }
    return node.items.filter((item): item is YAMLMap => {
      if (isMap(item)) return true;
      problems.push({ file, line: lineOf(item as never), message: `each entry of ${section} must be a mapping` });
      return false;
    });
  };
  /** One problem per violation, on the line of the field it names (else the entry's line). */
  const report = (item: YAMLMap, error: z.ZodError, label: string) => {
    for (const issue of error.issues) {
      const field = typeof issue.path[0] === 'string' ? issue.path[0] : undefined;
      const at = field ? lineOf(item.get(field, true) as never, lineOf(item)) : lineOf(item);
      const where = issue.path.length > 0 ? `${issue.path.join('.')} ` : '';
      problems.push({ file, line: at, message: `${label}: ${where}${issue.message}` });
    }
  };
  const where = { file, line: (offset: number) => counter.linePos(offset).line };
  const seenKeys = new Map<string, number>();
  for (const item of items('keys')) {
    const data = plainData(doc, item, where, problems);
    if (!data.ok) continue;
    const parsed = KeyItem.safeParse(data.value);
    const line = lineOf(item);
    if (!parsed.success) {
      report(item, parsed.error, 'key');
      continue;
    }
    const k = parsed.data;
    const first = seenKeys.get(k.key);
    if (first !== undefined) {
      problems.push({ file, line, message: `key ${k.key} is listed twice (first on line ${first})` });
      continue;
    }
    seenKeys.set(k.key, line);
    out.keys.push({
      key: k.key,
      label: k.label,
      description: k.description ?? null,
      parent: k.parent ?? null,
      synonyms: k.synonyms ?? [],
      line,
    });
  }
  const seenLinks = new Set<string>();
  for (const item of items('links')) {
    const data = plainData(doc, item, where, problems);
    if (!data.ok) continue;
    const parsed = LinkItem.safeParse(data.value);
    const line = lineOf(item);
    if (!parsed.success) {
      report(item, parsed.error, 'link');
      continue;
    }
    const l = parsed.data;
    const entry: LinkEntry = {
      source_type: l.skill !== undefined ? 'skill' : 'knowledge',
      source: (l.skill ?? l.knowledge)!,
      relation_type: l.relation,
      key: l.key,
    };
    if (seenLinks.has(linkIdentity(entry))) {
      problems.push({ file, line, message: 'this link is listed twice' });
      continue;
    }
    seenLinks.add(linkIdentity(entry));
    out.links.push({ ...entry, line });
  }
  return out;
}
