import { Worker } from 'node:worker_threads';
import { stringify } from 'yaml';
import { z } from 'zod';
import { TopicId } from '../knowledge/index.js';
import { SkillName } from '../skills/index.js';
import { BusinessKey, CreateKeyInput, RELATION_TYPES } from '../taxonomy/index.js';
import type { Pacer } from '../../platform/pacer.js';
import { byCodePoint, TAXONOMY_FILE } from './hub-files.format.js';
import type { FileProblem } from './hub-files.problems.js';
import { type LocatedItem, type LocatedTaxonomy, locateTaxonomy } from './hub-files.yaml.js';

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

/** Above this size taxonomy.yaml is read on a worker thread; below, reading it takes a few ms. */
export const TAXONOMY_INLINE_BYTES = 64 * 1024;

/** locateTaxonomy on a worker thread of its own. */
function locateInWorker(text: string, file: string): Promise<LocatedTaxonomy> {
  // The YAML of a hostile file can only exhaust the worker's own heap.
  const options = { resourceLimits: { maxOldGenerationSizeMb: 512 } };
  const worker = import.meta.url.endsWith('.ts')
    ? // Run from source (tests, `tsx src/cli.ts`): the worker loads TypeScript through tsx.
      new Worker(
        `import('tsx/esm/api').then((tsx) => { tsx.register(); ` +
          `return import(${JSON.stringify(new URL('./hub-files.yaml-worker.ts', import.meta.url).href)}); })`,
        { ...options, eval: true },
      )
    : new Worker(new URL('./hub-files.yaml-worker.js', import.meta.url), options);
  return new Promise<LocatedTaxonomy>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the taxonomy worker exited (${code})`)));
    worker.postMessage({ text, file });
  }).finally(() => void worker.terminate());
}

/**
 * The valid entries of taxonomy.yaml (a problem for each invalid one), or undefined when the file
 * cannot be read at all (not YAML, not a mapping). A large file is read as YAML on a worker thread;
 * the entries are checked here with a turn of the event loop between them (`pace`).
 */
export async function readTaxonomy(
  text: string,
  problems: FileProblem[],
  pace: Pacer,
): Promise<TaxonomyFile | undefined> {
  const file = TAXONOMY_FILE;
  const located =
    Buffer.byteLength(text) > TAXONOMY_INLINE_BYTES ? await locateInWorker(text, file) : locateTaxonomy(text, file);
  problems.push(...located.problems);
  if (located.unreadable) return undefined;
  const out: TaxonomyFile = { keys: [], links: [] };
  /** One problem per violation, on the line of the field it names (else the entry's line). */
  const report = (item: LocatedItem, error: z.ZodError, label: string) => {
    for (const issue of error.issues) {
      const field = typeof issue.path[0] === 'string' ? issue.path[0] : undefined;
      const at = (field && item.fields[field]) || item.line;
      const where = issue.path.length > 0 ? `${issue.path.join('.')} ` : '';
      problems.push({ file, line: at, message: `${label}: ${where}${issue.message}` });
    }
  };
  const seenKeys = new Map<string, number>();
  for (const item of located.keys) {
    await pace();
    const parsed = KeyItem.safeParse(item.value);
    const line = item.line;
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
  for (const item of located.links) {
    await pace();
    const parsed = LinkItem.safeParse(item.value);
    const line = item.line;
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
