/**
 * A Skill as an Agent Skills folder: `skill://<project_id>/<name>/SKILL.md`. The project is the
 * URI's authority, so the same name in two projects is two folders; the last segment before the
 * file is the front matter's name, as the Skills extension requires.
 */
import { PROJECT_ID_PATTERN } from '../projects/index.js';
import { SKILL_NAME_PATTERN } from '../skills/index.js';

export const SKILL_FILE = 'SKILL.md';
/** The folder a Skill's Knowledge sheets are in, as the Agent Skills format names it. */
export const REFERENCES_DIR = 'references';
/** Knowledge sheets bundled per Skill at most: what the model may open, not the whole hub. */
export const MAX_REFERENCES = 40;

export function referenceFile(topicId: string): string {
  return `${REFERENCES_DIR}/${topicId}.md`;
}

export function skillPath(projectId: string, name: string): string {
  return `${projectId}/${name}`;
}

export function skillUri(projectId: string, name: string, file = SKILL_FILE): string {
  return `skill://${skillPath(projectId, name)}/${file}`;
}

/** The project, Skill name and file a URI names; undefined for anything that is not one of ours. */
export function parseSkillUri(uri: string): { projectId: string; name: string; file: string } | undefined {
  const match = /^skill:\/\/([^/?#]+)\/([^/?#]+)\/([^?#]+)$/.exec(uri);
  if (!match) return undefined;
  const [, projectId, name, file] = match as unknown as [string, string, string, string];
  if (!PROJECT_ID_PATTERN.test(projectId) || !SKILL_NAME_PATTERN.test(name) || name.length > 64) return undefined;
  return { projectId, name, file };
}

/**
 * The project, Skill name and folder (`''` for the Skill's root, or `references`) a directory URI
 * names, with or without a trailing slash; undefined for anything else.
 */
export function parseSkillDirUri(uri: string): { projectId: string; name: string; dir: string } | undefined {
  const match = /^(skill:\/\/[^/?#]+\/[^/?#]+)(\/references)?\/?$/.exec(uri);
  if (!match) return undefined;
  const parsed = parseSkillUri(`${match[1]}/${SKILL_FILE}`);
  return parsed && { projectId: parsed.projectId, name: parsed.name, dir: match[2] ? REFERENCES_DIR : '' };
}
