/**
 * Reads a Skill's Markdown body: its steps, acceptance items and [[business.key]] references.
 * Pure functions; the body stays the single source of truth and these are derived from it.
 */

export interface SkillStep {
  index: number;
  title: string;
  instruction: string;
}

export const STEP_TITLE_MAX = 80;

/** `[[kpi.roas]]`: the same key grammar as business keys. */
const REFERENCE = /\[\[([a-z][a-z0-9_-]*(?:\.[a-z0-9][a-z0-9_-]*)*)\]\]/g;
const HEADING = /^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$/;
const ORDERED_ITEM = /^ {0,3}(\d{1,9})[.)](?:\s+(.*))?$/;
const BULLET_ITEM = /^ {0,3}[-*+](?:\s+(.*))?$/;
const FENCE = /^ {0,3}(```|~~~)/;

interface Line {
  text: string;
  /** Inside a fenced code block: never a heading or a list item. */
  fenced: boolean;
}

function linesOf(body: string): Line[] {
  let fenced = false;
  return body.split(/\r?\n/).map((text) => {
    const isFence = FENCE.test(text);
    const line = { text, fenced: fenced || isFence };
    if (isFence) fenced = !fenced;
    return line;
  });
}

function headingAt(line: Line): { level: number; text: string } | undefined {
  if (line.fenced) return undefined;
  const match = HEADING.exec(line.text);
  return match ? { level: match[1]!.length, text: match[2]! } : undefined;
}

/** The lines of the section under the first heading whose text starts with `word`. */
function section(lines: Line[], word: RegExp): Line[] | undefined {
  const start = lines.findIndex((l) => {
    const h = headingAt(l);
    return h !== undefined && word.test(h.text.replace(/[*_`]/g, '').trim());
  });
  if (start === -1) return undefined;
  const level = headingAt(lines[start]!)!.level;
  const out: Line[] = [];
  for (const line of lines.slice(start + 1)) {
    const h = headingAt(line);
    if (h && h.level <= level) break;
    out.push(line);
  }
  return out;
}

/**
 * The items of the first list in `lines` (ordered or bulleted as asked). An item runs on over
 * indented or lazy continuation lines and ends at a blank line followed by unindented text.
 */
function firstList(lines: Line[], kind: 'ordered' | 'any'): string[] {
  const itemOf = (line: Line): string | undefined => {
    if (line.fenced) return undefined;
    const ordered = ORDERED_ITEM.exec(line.text);
    if (ordered) return ordered[2] ?? '';
    if (kind === 'any') {
      const bullet = BULLET_ITEM.exec(line.text);
      if (bullet) return bullet[1] ?? '';
    }
    return undefined;
  };
  const items: string[][] = [];
  let blankBefore = false;
  for (const line of lines) {
    const item = itemOf(line);
    if (item !== undefined) {
      items.push([item]);
      blankBefore = false;
      continue;
    }
    if (items.length === 0) continue;
    if (line.text.trim() === '') {
      blankBefore = true;
      continue;
    }
    const indented = /^\s{2,}/.test(line.text);
    if (headingAt(line) || (!indented && blankBefore)) break;
    items[items.length - 1]!.push(line.text.trim());
    blankBefore = false;
  }
  return items.map((parts) => parts.join('\n').trim()).filter((text) => text.length > 0);
}

function clip(text: string, max: number): string {
  const points = Array.from(text);
  return points.length <= max
    ? text
    : `${points
        .slice(0, max - 1)
        .join('')
        .trimEnd()}…`;
}

/** The step's bold lead, else its text up to the first `:` or sentence end, at most 80 code points. */
export function stepTitle(instruction: string): string {
  const firstLine = instruction.split('\n')[0]!.trim();
  const bold = /^(?:\*\*|__)(.+?)(?:\*\*|__)/.exec(firstLine);
  let title = bold ? bold[1]! : firstLine.split(/:|\.(?:\s|$)/)[0]!;
  title = title
    .replace(/[*_`]/g, '')
    .replace(/[\s:.]+$/, '')
    .trim();
  return clip(title || firstLine, STEP_TITLE_MAX);
}

export function parseSteps(body: string): SkillStep[] {
  const lines = linesOf(body);
  const underHeading = section(lines, /^steps?\b/i);
  const items = firstList(
    underHeading && firstList(underHeading, 'ordered').length > 0 ? underHeading : lines,
    'ordered',
  );
  return items.map((instruction, i) => ({ index: i + 1, title: stepTitle(instruction), instruction }));
}

export function parseAcceptance(body: string): string[] {
  const under = section(linesOf(body), /^acceptance\b/i);
  if (!under) return [];
  return firstList(under, 'any').map((item) => item.replace(/^\[[ xX]\]\s*/, '').trim());
}

export function parseReferences(body: string): string[] {
  const seen = new Set<string>();
  for (const match of body.matchAll(REFERENCE)) seen.add(match[1]!);
  return [...seen];
}

/** Body references first (in reading order), then explicit ones not already named. */
export function mergeReferences(fromBody: string[], explicit: string[] | undefined): string[] {
  return [...new Set([...fromBody, ...(explicit ?? [])])];
}

/**
 * The body's title: its first level-1 heading, when it comes before any other content (a Skill's
 * prompt is titled with it), without inline formatting; else undefined.
 */
export function parseTitle(body: string): string | undefined {
  for (const line of linesOf(body)) {
    if (line.text.trim() === '') continue;
    const heading = headingAt(line);
    if (heading?.level !== 1) return undefined;
    const text = heading.text.replace(/[*_`]/g, '').trim();
    return text ? clip(text, 200) : undefined;
  }
  return undefined;
}
