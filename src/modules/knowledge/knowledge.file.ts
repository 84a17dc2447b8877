import { stringify } from 'yaml';

/**
 * A sheet as a file, `knowledge/<topic_id>.md` in an export and `references/<topic_id>.md` in a
 * Skill served over the MCP Skills extension: front matter with title and (optionally) owner, then
 * the body. One renderer, so both give the same bytes.
 */
export function renderKnowledgeFile(sheet: { title: string; owner: string | null; body_md: string }): string {
  const doc = sheet.owner === null ? { title: sheet.title } : { title: sheet.title, owner: sheet.owner };
  return `---\n${stringify(doc, { lineWidth: 0 })}---\n${sheet.body_md}`;
}
