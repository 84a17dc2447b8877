// BENCHMARKS.md is part generated, part written by hand: each `## <name>` section a bench's --write
// replaces, and inside it an optional `### <name> notes` subsection that records what earlier
// sessions measured and why. A rerun must refresh the figures without erasing that history.
import fs from 'node:fs';

const NEW_FILE =
  '# Benchmarks\n\nFigures from `npm run bench:*` on the development machine; each section names its command.\n';

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Where the `## <name>` section starts and ends (at the next `## ` heading), or undefined. */
function sectionBounds(document: string, name: string): { start: number; end: number } | undefined {
  const start = document.search(new RegExp(`^## ${escapeRegExp(name)}[ \\t]*$`, 'm'));
  if (start < 0) return undefined;
  const bodyAt = document.indexOf('\n', start);
  const next = bodyAt < 0 ? -1 : document.slice(bodyAt).search(/^## /m);
  return { start, end: next < 0 ? document.length : bodyAt + next };
}

/**
 * The document with its `## <name>` section replaced by `section` (which starts with that heading),
 * keeping the old section's `### <name> notes` subsection after the new figures; the section is
 * appended when the document has none.
 */
export function replaceBenchmarkSection(document: string, name: string, section: string): string {
  const bounds = sectionBounds(document, name);
  if (!bounds) return `${document.trimEnd()}\n\n${section.trimEnd()}\n`;
  const old = document.slice(bounds.start, bounds.end);
  const notesAt = old.search(new RegExp(`^### ${escapeRegExp(name)} notes[ \\t]*$`, 'm'));
  const notes = notesAt < 0 ? '' : `\n${old.slice(notesAt).trimEnd()}\n`;
  const after = document.slice(bounds.end);
  return `${document.slice(0, bounds.start)}${section.trimEnd()}\n${notes}${after ? `\n${after}` : ''}`;
}

/** Replaces (or appends) the `## <name>` section of a BENCHMARKS.md file; see replaceBenchmarkSection. */
export function writeBenchmarkSection(file: string, name: string, section: string): void {
  const current = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : NEW_FILE;
  fs.writeFileSync(file, replaceBenchmarkSection(current, name, section));
}

/** The current `## <name>` section of a BENCHMARKS.md file, or '' (for a bench that keeps rows of an earlier run). */
export function readBenchmarkSection(file: string, name: string): string {
  if (!fs.existsSync(file)) return '';
  const document = fs.readFileSync(file, 'utf8');
  const bounds = sectionBounds(document, name);
  return bounds ? document.slice(bounds.start, bounds.end) : '';
}
