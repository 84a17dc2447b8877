import { parse, stringify } from 'yaml';
import { ValidationError, type FieldViolation } from '../../platform/errors.js';
import { MAX_YAML_DEPTH, yamlTooDeep } from '../../platform/yaml-depth.js';
import { moveLegacyArguments, nonStringMetadata } from './skills.arguments.js';
import {
  MAX_FRONT_MATTER_BYTES,
  METADATA_STRING_MESSAGE,
  SKILL_NAME_PATTERN,
  skillNameMessage,
} from './skills.schemas.js';

/**
 * SKILL.md (Agent Skills format): YAML front matter between `---` lines, then the Markdown body.
 * An imported file keeps its front matter verbatim, so exporting that version gives back the
 * same bytes; versions written through the API export a canonical front matter instead.
 */
export interface SkillFile {
  name: string;
  description: string;
  metadata: Record<string, unknown>;
  /** Other top-level keys (license, allowed-tools …), kept as given. */
  extra: Record<string, unknown>;
  frontmatterRaw: string;
  body: string;
}

const OPEN = /^---[ \t]*\r?\n/;
const CLOSE = /^---[ \t]*(\r?\n|$)/m;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function parseSkillFile(text: string): SkillFile {
  const open = OPEN.exec(text);
  if (!open) {
    throw new ValidationError(
      [{ path: 'body', message: 'must start with YAML front matter between --- lines (name, description)' }],
      undefined,
      'skill_md_invalid',
    );
  }
  const rest = text.slice(open[0].length);
  const close = CLOSE.exec(rest);
  if (!close)
    throw new ValidationError(
      [{ path: 'body', message: 'the front matter has no closing --- line' }],
      undefined,
      'skill_md_invalid',
    );
  const yamlText = rest.slice(0, close.index);
  const frontmatterRaw = text.slice(0, open[0].length + close.index + close[0].length);
  if (Buffer.byteLength(yamlText, 'utf8') > MAX_FRONT_MATTER_BYTES)
    throw new ValidationError(
      [{ path: 'body.front_matter', message: `must be at most ${MAX_FRONT_MATTER_BYTES / 1024} KiB of YAML` }],
      undefined,
      'skill_md_invalid',
    );
  // Deep nesting is refused before the parser recurses into it (platform/yaml-depth.ts says why).
  if (yamlTooDeep(yamlText) !== undefined)
    throw new ValidationError(
      [{ path: 'body.front_matter', message: `is not valid YAML: it nests deeper than ${MAX_YAML_DEPTH} levels` }],
      undefined,
      'skill_md_invalid',
    );
  let data: unknown;
  try {
    data = parse(yamlText, { maxAliasCount: 10 });
  } catch (error) {
    // A YAML error, or an alias to a missing anchor or past maxAliasCount (ReferenceError).
    const why = error instanceof Error ? `: ${error.message.split('\n')[0]}` : '';
    throw new ValidationError(
      [{ path: 'body.front_matter', message: `is not valid YAML${why}` }],
      undefined,
      'skill_md_invalid',
    );
  }
  if (!isRecord(data))
    throw new ValidationError(
      [{ path: 'body.front_matter', message: 'must be a YAML mapping with name and description' }],
      undefined,
      'skill_md_invalid',
    );
  const { name, description, metadata, ...extra } = data;
  const errors: FieldViolation[] = [];
  if (typeof name !== 'string' || !SKILL_NAME_PATTERN.test(name) || name.length > 64) {
    errors.push({
      path: 'front_matter.name',
      message: `${skillNameMessage(name)} At most 64 characters.`,
    });
  }
  if (typeof description !== 'string' || description.trim() === '' || description.length > 1024) {
    errors.push({ path: 'front_matter.description', message: 'must be a non-empty string of at most 1024 characters' });
  }
  if (metadata !== undefined && metadata !== null && !isRecord(metadata))
    errors.push({ path: 'front_matter.metadata', message: 'must be a mapping' });
  else if (isRecord(metadata)) {
    // A legacy `arguments` list is the one non-string value still read (it moves into the body).
    const { arguments: legacy, ...rest } = metadata;
    for (const key of nonStringMetadata(rest))
      errors.push({ path: `front_matter.metadata.${key}`, message: METADATA_STRING_MESSAGE });
    if (legacy !== undefined && typeof legacy !== 'string' && !Array.isArray(legacy))
      errors.push({ path: 'front_matter.metadata.arguments', message: METADATA_STRING_MESSAGE });
  }
  if (errors.length > 0) throw new ValidationError(errors, undefined, 'skill_md_invalid');
  return {
    name: name as string,
    description: description as string,
    metadata: isRecord(metadata) ? metadata : {},
    extra,
    frontmatterRaw,
    body: rest.slice(close.index + close[0].length),
  };
}

export function canonicalFrontmatter(input: {
  name: string;
  description: string;
  metadata: Record<string, unknown>;
  extra: Record<string, unknown>;
}): string {
  const doc: Record<string, unknown> = { name: input.name, description: input.description, ...input.extra };
  if (Object.keys(input.metadata).length > 0) doc.metadata = input.metadata;
  return `---\n${stringify(doc, { lineWidth: 0 })}---\n`;
}

export function renderSkillFile(version: {
  name: string;
  description: string;
  metadata: Record<string, unknown>;
  frontmatter_extra: Record<string, unknown>;
  frontmatter_raw: string | null;
  body_md: string;
}): string {
  // A version stored before arguments lived in the body renders as if written today.
  version = moveLegacyArguments(version);
  const front =
    version.frontmatter_raw ??
    canonicalFrontmatter({
      name: version.name,
      description: version.description,
      metadata: version.metadata,
      extra: version.frontmatter_extra,
    });
  return front + version.body_md;
}
