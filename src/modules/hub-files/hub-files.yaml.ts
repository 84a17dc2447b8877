import { Document, isMap, isNode, isSeq, LineCounter, type Node, parseDocument, visit, type YAMLMap } from 'yaml';
import { MAX_YAML_DEPTH, yamlTooDeep } from '../../platform/yaml-depth.js';
// Types only: this file runs in the taxonomy worker too, which loads no zod schema.
import type { FileProblem } from './hub-files.problems.js';

/** How many times one document may expand aliases (a "billion laughs" document expands without end). */
export const MAX_YAML_ALIASES = 10;

/** A YAML text parsed, or why not: errors with their 1-based line, first line of the message only. */
export function parseYaml(text: string): {
  doc: Document;
  counter: LineCounter;
  errors: { line: number; message: string }[];
} {
  const counter = new LineCounter();
  const deep = yamlTooDeep(text);
  if (deep !== undefined) {
    const line = text.slice(0, deep).split('\n').length;
    return { doc: new Document(), counter, errors: [{ line, message: `nests deeper than ${MAX_YAML_DEPTH} levels` }] };
  }
  const doc = parseDocument(text, { lineCounter: counter });
  const errors = doc.errors.map((error) => ({
    line: error.linePos?.[0]?.line ?? 1,
    message: error.message.split('\n')[0]!,
  }));
  return { doc, counter, errors };
}

/**
 * A YAML node as plain data, or undefined with a problem: an alias to an anchor that is not set
 * before it, or more alias expansions than MAX_YAML_ALIASES, named on the line of its first alias.
 */
export function plainData(
  doc: Document,
  node: unknown,
  where: { file: string; line: (offset: number) => number },
  problems: FileProblem[],
): { value?: unknown; ok: boolean } {
  if (!isNode(node)) return { value: node ?? null, ok: true };
  try {
    return { value: node.toJS(doc, { maxAliasCount: MAX_YAML_ALIASES }), ok: true };
  } catch (error) {
    if (!(error instanceof ReferenceError)) throw error;
    let first: Node | undefined;
    visit(node, {
      Alias(_key, alias) {
        first = alias;
        return visit.BREAK;
      },
    });
    const at = where.line((first ?? node).range?.[0] ?? 0);
    const why = /excessive alias/i.test(error.message)
      ? `expands aliases more than ${MAX_YAML_ALIASES} times`
      : `has an alias to an anchor not set before it (${error.message.split(': ').at(-1)})`;
    problems.push({ file: where.file, line: at, message: `YAML ${why}` });
    return { ok: false };
  }
}

/** An entry of taxonomy.yaml's `keys` or `links` as plain data, with the lines to name in a problem. */
export interface LocatedItem {
  line: number;
  value: unknown;
  /** The line of each of the entry's fields, by name. */
  fields: Record<string, number>;
}

/** taxonomy.yaml read as YAML (not yet checked against the schemas); `unreadable` when it is not a mapping. */
export interface LocatedTaxonomy {
  problems: FileProblem[];
  unreadable: boolean;
  keys: LocatedItem[];
  links: LocatedItem[];
}

/**
 * The YAML half of reading taxonomy.yaml: the document, its two sections and each entry as data
 * with its lines, every YAML problem collected. Plain data in and out, so a large file can be read
 * on a worker thread (hub-files.yaml-worker.ts) while the service keeps answering.
 */
export function locateTaxonomy(text: string, file: string): LocatedTaxonomy {
  const out: LocatedTaxonomy = { problems: [], unreadable: false, keys: [], links: [] };
  const problems = out.problems;
  const { doc, counter, errors } = parseYaml(text);
  for (const error of errors) problems.push({ file, line: error.line, message: error.message });
  if (errors.length > 0) return { ...out, unreadable: true };
  const lineOf = (node: { range?: [number, number, number] | null } | null | undefined, fallback = 1) =>
    node?.range ? counter.linePos(node.range[0]).line : fallback;
  const root = doc.contents;
  if (root === null) return out;
  if (!isMap(root)) {
    problems.push({ file, line: lineOf(root), message: 'must be a mapping with keys: and links:' });
    return { ...out, unreadable: true };
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
  const where = { file, line: (offset: number) => counter.linePos(offset).line };
  for (const section of ['keys', 'links'] as const) {
    const node = root.get(section, true);
    if (node === undefined || node === null) continue;
    if (!isSeq(node)) {
      problems.push({ file, line: lineOf(node as never), message: `${section} must be a list` });
      continue;
    }
    for (const item of node.items) {
      if (!isMap(item)) {
        problems.push({ file, line: lineOf(item as never), message: `each entry of ${section} must be a mapping` });
        continue;
      }
      const data = plainData(doc, item, where, problems);
      if (!data.ok) continue;
      const fields: Record<string, number> = {};
      for (const pair of (item as YAMLMap).items) {
        const field = (pair.key as { value?: unknown } | null)?.value;
        if (typeof field === 'string') fields[field] = lineOf(pair.value as never, lineOf(item));
      }
      out[section].push({ line: lineOf(item), value: data.value, fields });
    }
  }
  return out;
}
