import type { Document, LineCounter } from 'yaml';
import { ValidationError } from '../../platform/errors.js';
import { AddKnowledgeInput, renderKnowledgeFile, TopicId } from '../knowledge/index.js';
import { type DocumentKindName, MAX_BODY_BYTES } from '../documents/index.js';
import {
  parseReferences,
  parseSkillFile,
  type SkillFile,
  MAX_FRONT_MATTER_BYTES,
  MAX_SKILL_NAME_LENGTH,
  SKILL_NAME_PATTERN,
  skillNameMessage,
} from '../skills/index.js';
import { parseYaml, plainData } from './hub-files.yaml.js';
import type { FileProblem } from './hub-files.problems.js';

export const TAXONOMY_FILE = 'taxonomy.yaml';
export const skillPath = (name: string) => `skills/${name}/SKILL.md`;
export const knowledgePath = (topicId: string) => `knowledge/${topicId}.md`;

/** Where a file of a folder belongs; `ignored` for anything else (scripts next to a SKILL.md, a README …). */
export type FileRole = { kind: DocumentKindName; key: string } | { kind: 'taxonomy' } | { kind: 'ignored' };

export function roleOf(path: string): FileRole {
  if (path === TAXONOMY_FILE) return { kind: 'taxonomy' };
  const skill = /^skills\/([^/]+)\/SKILL\.md$/.exec(path);
  if (skill) return { kind: 'skill', key: skill[1]! };
  const sheet = /^knowledge\/([^/]+)\.md$/.exec(path);
  if (sheet) return { kind: 'knowledge', key: sheet[1]! };
  return { kind: 'ignored' };
}

const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
export { byCodePoint };

/** UTF-8 text, or the problem that it is not text we can store. */
export function decodeText(file: string, bytes: Buffer): { text?: string; problem?: FileProblem } {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { problem: { file, line: null, message: 'is not UTF-8 text' } };
  }
  const nul = text.indexOf('\u0000');
  if (nul !== -1) return { problem: { file, line: lineAt(text, nul), message: 'contains the NUL character (U+0000)' } };
  return { text };
}

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line += 1;
  return line;
}

interface FrontMatter {
  doc: Document;
  /** The YAML did not parse (each error is a problem already). */
  failed: boolean;
  counter: LineCounter;
  body: string;
  /** Line of the first body line in the file. */
  bodyLine: number;
}

const OPEN = /^---[ \t]*\r?\n/;
const CLOSE = /^---[ \t]*(\r?\n|$)/m;

/** YAML front matter between `---` lines (as skills.skillmd reads it), with line numbers. */
function frontMatter(file: string, text: string, problems: FileProblem[]): FrontMatter | undefined {
  const open = OPEN.exec(text);
  if (!open) {
    problems.push({ file, line: 1, message: 'must start with YAML front matter between --- lines' });
    return undefined;
  }
  const rest = text.slice(open[0].length);
  const close = CLOSE.exec(rest);
  if (!close) {
    problems.push({ file, line: 1, message: 'the front matter has no closing --- line' });
    return undefined;
  }
  const yaml = rest.slice(0, close.index);
  if (Buffer.byteLength(yaml, 'utf8') > MAX_FRONT_MATTER_BYTES) {
    problems.push({ file, line: 2, message: `the front matter must be at most ${MAX_FRONT_MATTER_BYTES / 1024} KiB` });
    return undefined;
  }
  const { doc, counter, errors } = parseYaml(yaml);
  for (const error of errors) problems.push({ file, line: error.line + 1, message: `front matter: ${error.message}` });
  const bodyStart = open[0].length + close.index + close[0].length;
  return { doc, counter, failed: errors.length > 0, body: text.slice(bodyStart), bodyLine: lineAt(text, bodyStart) };
}

/** The file line of a top-level front-matter key (line 1 when it is absent). */
function keyLine(front: FrontMatter, key: string): number {
  const contents = front.doc.contents as { items?: { key?: { value?: unknown; range?: [number] } }[] } | null;
  const pair = contents?.items?.find((item) => item.key?.value === key);
  return pair?.key?.range ? front.counter.linePos(pair.key.range[0]).line + 1 : 1;
}

/** The file line of a key under the front matter's `metadata` (the line of `metadata` otherwise). */
function metadataKeyLine(front: FrontMatter, key: string): number {
  const node = front.doc.get('metadata', true) as { items?: { key?: { value?: unknown; range?: [number] } }[] };
  const pair = node?.items?.find((item) => item.key?.value === key);
  return pair?.key?.range ? front.counter.linePos(pair.key.range[0]).line + 1 : keyLine(front, 'metadata');
}

/** The line of the first `[[key]]` in a body, as a file line. */
function referenceLine(front: FrontMatter, key: string): number {
  const at = front.body.indexOf(`[[${key}]]`);
  return at === -1 ? front.bodyLine : front.bodyLine + lineAt(front.body, at) - 1;
}

export interface SkillFromFile {
  file: string;
  name: string;
  text: string;
  parsed: SkillFile;
  /** Each `[[key]]` of the body with the file line it is first on. */
  references: { key: string; line: number }[];
}

export function readSkillFile(file: string, folder: string, text: string, problems: FileProblem[]) {
  const before = problems.length;
  const front = frontMatter(file, text, problems);
  const folderOk = SKILL_NAME_PATTERN.test(folder) && folder.length <= MAX_SKILL_NAME_LENGTH;
  if (!folderOk)
    problems.push({ file, line: null, message: `the folder name "${folder}" ${skillNameMessage(folder)}` });
  if (!front || front.failed) return undefined;
  // Aliases first, so a bad one is named on its line (parseSkillFile would say only "not valid YAML").
  const where = { file, line: (offset: number) => front.counter.linePos(offset).line + 1 };
  if (!plainData(front.doc, front.doc.contents, where, problems).ok) return undefined;
  let parsed: SkillFile;
  try {
    parsed = parseSkillFile(text);
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    for (const v of error.errors) {
      const nested = /^front_matter\.metadata\.(.+)$/.exec(v.path)?.[1];
      if (nested !== undefined) {
        problems.push({ file, line: metadataKeyLine(front, nested), message: `metadata.${nested} ${v.message}` });
        continue;
      }
      const key = /^front_matter\.(\w+)/.exec(v.path)?.[1];
      problems.push({ file, line: key ? keyLine(front, key) : 1, message: `${key ?? v.path} ${v.message}` });
    }
    return undefined;
  }
  if (parsed.name !== folder) {
    problems.push({
      file,
      line: keyLine(front, 'name'),
      message: `name "${parsed.name}" differs from its folder "${folder}": they must be the same`,
    });
  }
  if (Buffer.byteLength(parsed.body, 'utf8') > MAX_BODY_BYTES)
    problems.push({ file, line: front.bodyLine, message: 'the Markdown body must be at most 1 MiB' });
  if (problems.length > before) return undefined;
  const references = parseReferences(parsed.body).map((key) => ({ key, line: referenceLine(front, key) }));
  return { file, name: folder, text, parsed, references } satisfies SkillFromFile;
}

export interface SheetFromFile {
  file: string;
  topic_id: string;
  title: string;
  owner: string | null;
  body_md: string;
}

export { renderKnowledgeFile };

const KNOWLEDGE_KEYS = new Set(['title', 'owner']);

export function readKnowledgeFile(file: string, topicId: string, text: string, problems: FileProblem[]) {
  const before = problems.length;
  const id = TopicId.safeParse(topicId);
  if (!id.success)
    problems.push({ file, line: null, message: `the file name "${topicId}" ${id.error.issues[0]!.message}` });
  const front = frontMatter(file, text, problems);
  if (!front || front.failed) return undefined;
  const read = plainData(
    front.doc,
    front.doc.contents,
    { file, line: (offset) => front.counter.linePos(offset).line + 1 },
    problems,
  );
  if (!read.ok) return undefined;
  const data = read.value;
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    problems.push({ file, line: 2, message: 'the front matter must be a mapping with title (and owner)' });
    return undefined;
  }
  for (const key of Object.keys(data).filter((k) => !KNOWLEDGE_KEYS.has(k)))
    problems.push({ file, line: keyLine(front, key), message: `unknown front matter key "${key}" (title, owner)` });
  const fields = data as { title?: unknown; owner?: unknown };
  const title = AddKnowledgeInput.shape.title.safeParse(fields.title);
  if (!title.success)
    problems.push({ file, line: keyLine(front, 'title'), message: `title ${title.error.issues[0]!.message}` });
  const owner = AddKnowledgeInput.shape.owner.nullable().safeParse(fields.owner ?? null);
  if (!owner.success)
    problems.push({ file, line: keyLine(front, 'owner'), message: `owner ${owner.error.issues[0]!.message}` });
  if (Buffer.byteLength(front.body, 'utf8') > MAX_BODY_BYTES)
    problems.push({ file, line: front.bodyLine, message: 'the Markdown body must be at most 1 MiB' });
  if (problems.length > before || !title.success || !owner.success) return undefined;
  return { file, topic_id: topicId, title: title.data, owner: owner.data ?? null, body_md: front.body };
}
