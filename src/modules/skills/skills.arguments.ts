/**
 * A Skill's prompt arguments as the body's `## Arguments` section. The Agent Skills format lets
 * `metadata` map strings to strings only, so a list of arguments there makes a SKILL.md that hosts
 * refuse; the body is free-form, and the model reads the section too. An older file's
 * `metadata.arguments` list is moved into the body when it is written or rendered, so every
 * SKILL.md the hub gives out stays valid and old files still import. Pure functions.
 */
import { isDeepStrictEqual } from 'node:util';
import { isMap, isPair, isScalar, parse, parseDocument, type Pair } from 'yaml';
import { VALUE_KINDS } from '../../mcp/kit/completion.js';
import { ValidationError } from '../../platform/errors.js';
import { METADATA_STRING_MESSAGE } from './skills.schemas.js';

/** An argument as a SKILL.md declares it (the shape declaredArguments reads). */
export interface ArgumentDeclaration {
  name: string;
  description?: string;
  required?: boolean;
  complete?: string;
}

const SECTION = /^ {0,3}##\s+arguments\s*#*\s*$/i;
const NEXT_SECTION = /^ {0,3}#{1,2}\s/;
const FENCE = /^ {0,3}(```|~~~)/;
/** ``- `channel` (required, channel): The channel to check.`` — the backticks, flags and text are optional. */
const ITEM = /^ {0,3}[-*+]\s+`?([A-Za-z_][A-Za-z0-9_]*)`?\s*(?:\(([^)]*)\))?\s*(?:[:—–-]\s*(.*))?$/;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The declarations of the body's `## Arguments` section; undefined when the body has none. */
export function parseArgumentsSection(body: string): ArgumentDeclaration[] | undefined {
  const lines = body.split(/\r?\n/);
  let fenced = false;
  let inside = false;
  let found = false;
  const out: ArgumentDeclaration[] = [];
  for (const line of lines) {
    if (FENCE.test(line)) {
      fenced = !fenced;
      continue;
    }
    if (fenced) continue;
    if (SECTION.test(line)) {
      if (found) break;
      inside = found = true;
      continue;
    }
    if (!inside) continue;
    if (NEXT_SECTION.test(line)) break;
    const item = ITEM.exec(line);
    if (!item) continue;
    const flags = (item[2] ?? '')
      .split(',')
      .map((f) => f.trim().toLowerCase())
      .filter(Boolean);
    const complete = flags.find((f) => (VALUE_KINDS as readonly string[]).includes(f));
    const description = item[3]?.trim();
    out.push({
      name: item[1]!,
      ...(description ? { description } : {}),
      ...(flags.includes('required') ? { required: true } : {}),
      ...(complete ? { complete } : {}),
    });
  }
  return found ? out : undefined;
}

/** The understood entries of a legacy `arguments` list (names, or objects with a name). */
function legacyDeclarations(list: unknown[]): ArgumentDeclaration[] {
  const out: ArgumentDeclaration[] = [];
  for (const entry of list) {
    const spec = isRecord(entry) ? entry : { name: entry };
    if (typeof spec.name !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(spec.name)) continue;
    const description = typeof spec.description === 'string' ? spec.description.replace(/\s+/g, ' ').trim() : '';
    out.push({
      name: spec.name,
      ...(description ? { description } : {}),
      ...(spec.required === true ? { required: true } : {}),
      ...(typeof spec.complete === 'string' ? { complete: spec.complete } : {}),
    });
  }
  return out;
}

export function renderArgumentsSection(specs: ArgumentDeclaration[]): string {
  const lines = specs.map((s) => {
    const flags = [...(s.required ? ['required'] : []), ...(s.complete ? [s.complete] : [])];
    return `- \`${s.name}\`${flags.length ? ` (${flags.join(', ')})` : ''}${s.description ? `: ${s.description}` : ''}`;
  });
  return `## Arguments\n\n${lines.join('\n')}\n`;
}

/** `body` with the section appended (after one blank line), unless it has one already. */
function withSection(body: string, specs: ArgumentDeclaration[]): string {
  if (specs.length === 0 || parseArgumentsSection(body) !== undefined) return body;
  const trimmed = body.replace(/\s+$/, '');
  return `${trimmed}${trimmed ? '\n\n' : ''}${renderArgumentsSection(specs)}`;
}

/**
 * The front matter YAML (between the --- lines) without `metadata.arguments`, every other byte kept;
 * the whole `metadata` entry goes when nothing else is in it. Re-read to check that exactly that
 * key went; when a layout defeats the cut (flow style), the document is written out again instead.
 */
function yamlWithoutArguments(yamlText: string): string {
  const doc = parseDocument(yamlText);
  const meta = doc.get('metadata', true);
  if (!isMap(meta) || !isMap(doc.contents)) return yamlText;
  const keyIs = (p: unknown, k: string) => isPair(p) && isScalar(p.key) && p.key.value === k;
  const argPair = meta.items.find((p) => keyIs(p, 'arguments')) as Pair | undefined;
  if (!argPair) return yamlText;
  const alone = meta.items.length === 1;
  const cutPair = alone ? (doc.contents.items.find((p) => keyIs(p, 'metadata')) as Pair) : argPair;
  const keyRange = (cutPair.key as { range?: [number, number, number] }).range;
  const valueRange = (cutPair.value as { range?: [number, number, number] } | null)?.range;
  const expected = parse(yamlText) as Record<string, unknown>;
  const expectedMeta = { ...(expected.metadata as Record<string, unknown>) };
  delete expectedMeta.arguments;
  if (Object.keys(expectedMeta).length === 0) delete expected.metadata;
  else expected.metadata = expectedMeta;
  if (keyRange && valueRange) {
    const start = yamlText.lastIndexOf('\n', keyRange[0] - 1) + 1;
    const end = valueRange[2];
    const cut = yamlText.slice(0, start) + yamlText.slice(end);
    const reread = (parse(cut) ?? {}) as unknown;
    if (isDeepStrictEqual(reread, expected)) return cut;
  }
  if (alone) doc.delete('metadata');
  else doc.deleteIn(['metadata', 'arguments']);
  return doc.toString({ lineWidth: 0 });
}

const RAW = /^(---[ \t]*\r?\n)([\s\S]*?)((?:^|\n)---[ \t]*(?:\r?\n)?)$/;

/** frontmatter_raw (with its --- lines) without `metadata.arguments`. */
function rawWithoutArguments(raw: string): string {
  const m = RAW.exec(raw);
  if (!m) return raw;
  const close = m[3]!.startsWith('\n') ? m[3]!.slice(1) : m[3]!;
  const inner = m[3]!.startsWith('\n') ? `${m[2]}\n` : m[2]!;
  const cut = yamlWithoutArguments(inner);
  return `${m[1]}${cut.endsWith('\n') || cut === '' ? cut : `${cut}\n`}${close}`;
}

/**
 * A Skill's fields with a legacy `metadata.arguments` list moved into the body's `## Arguments`
 * section (left as is when the body already has one), the key taken out of `metadata` and, for an
 * imported file, out of its verbatim front matter. Fields without the list come back unchanged.
 */
export function moveLegacyArguments<
  T extends { metadata: Record<string, unknown>; body_md: string; frontmatter_raw: string | null },
>(fields: T): T {
  const list = fields.metadata.arguments;
  if (list === undefined) return fields;
  const { arguments: _moved, ...metadata } = fields.metadata;
  return {
    ...fields,
    metadata,
    body_md: Array.isArray(list) ? withSection(fields.body_md, legacyDeclarations(list)) : fields.body_md,
    frontmatter_raw: fields.frontmatter_raw === null ? null : rawWithoutArguments(fields.frontmatter_raw),
  };
}

/** The declarations a version's prompt takes: its body's section, else a legacy list. */
export function argumentDeclarations(
  body: string,
  metadata: Record<string, unknown>,
  extra: Record<string, unknown>,
): unknown[] {
  const section = parseArgumentsSection(body);
  if (section !== undefined) return section;
  if (Array.isArray(metadata.arguments)) return metadata.arguments;
  if (Array.isArray(extra.arguments)) return extra.arguments;
  return [];
}

/**
 * Keys of metadata values that are not strings (the Agent Skills format allows strings only),
 * once a legacy `arguments` list has been moved out.
 */
export function nonStringMetadata(metadata: Record<string, unknown>): string[] {
  return Object.entries(metadata)
    .filter(([, value]) => typeof value !== 'string')
    .map(([key]) => key);
}

/**
 * Refuses metadata hosts would refuse, on the write every path ends in (a request's schema says it
 * first; this also stops a proposal stored before the rule from publishing such a version).
 */
export function assertStringMetadata(metadata: Record<string, unknown>, prefix = 'metadata'): void {
  const keys = nonStringMetadata(metadata);
  if (keys.length === 0) return;
  throw new ValidationError(
    keys.map((key) => ({ path: `${prefix}.${key}`, message: METADATA_STRING_MESSAGE })),
    undefined,
    'skill_metadata_invalid',
  );
}
