import { diffArrays } from 'diff';

/**
 * Line diffs and their unified-diff text, as `diff -u` writes it. The edit script comes from the
 * `diff` package (jsdiff, Myers' O(ND) algorithm); what is ours is the GNU hunk text, which jsdiff's
 * own formatter does not write (it prints `-1,1` where `diff -u` prints `-1`, and quotes labels).
 * No business rules: the Skills and Knowledge diffs build on it.
 */

export interface DiffOp {
  kind: 'equal' | 'delete' | 'insert';
  /** The line with its terminating "\n" (the last line of a text may have none). */
  line: string;
}

/**
 * Beyond this many differing lines the search grows quadratic in time and memory (~16 MB at this
 * count), so the differing middle is given as one block replaced: still a correct diff, only not
 * the shortest.
 */
export const MAX_DIFF_EDITS = 2000;

/** The lines of `text`, each with its "\n"; a text without a final newline ends in a line without one. */
export function splitLines(text: string): string[] {
  return text === '' ? [] : (text.match(/[^\n]*\n|[^\n]+$/g) ?? []);
}

/** A shortest edit script turning `a` into `b` (up to `maxEdits` edits, then a block replace). */
export function diffLines(a: string[], b: string[], maxEdits = MAX_DIFF_EDITS): DiffOp[] {
  const changes = diffArrays(a, b, { maxEditLength: maxEdits });
  if (!changes) return blockReplace(a, b);
  const ops: DiffOp[] = [];
  for (const change of changes) {
    const kind = change.added ? 'insert' : change.removed ? 'delete' : 'equal';
    for (const line of change.value) ops.push({ kind, line });
  }
  return ops;
}

/** The common head and tail kept, everything between them deleted and inserted. */
function blockReplace(a: string[], b: string[]): DiffOp[] {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start += 1;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA -= 1;
    endB -= 1;
  }
  const ops = (kind: DiffOp['kind'], lines: string[]) => lines.map((line): DiffOp => ({ kind, line }));
  return [
    ...ops('equal', a.slice(0, start)),
    ...ops('delete', a.slice(start, endA)),
    ...ops('insert', b.slice(start, endB)),
    ...ops('equal', a.slice(endA)),
  ];
}

const PREFIX = { equal: ' ', delete: '-', insert: '+' } as const;

function range(start: number, length: number): string {
  // diff -u: a range of one line is its number alone; an empty one names the line before it.
  if (length === 1) return String(start + 1);
  return `${length === 0 ? start : start + 1},${length}`;
}

/**
 * The unified diff of two texts (`diff -u` format, `context` lines around each change); empty when
 * they are equal. A last line without "\n" is followed by "\ No newline at end of file".
 */
export function unifiedDiff(from: string, to: string, labels: { from: string; to: string }, context = 3): string {
  const ops = diffLines(splitLines(from), splitLines(to));
  const changes: number[] = [];
  ops.forEach((op, i) => {
    if (op.kind !== 'equal') changes.push(i);
  });
  if (changes.length === 0) return '';
  // Where each op starts in the old and the new text.
  const aAt: number[] = [];
  const bAt: number[] = [];
  let ai = 0;
  let bi = 0;
  for (const op of ops) {
    aAt.push(ai);
    bAt.push(bi);
    if (op.kind !== 'insert') ai += 1;
    if (op.kind !== 'delete') bi += 1;
  }
  let out = `--- ${labels.from}\n+++ ${labels.to}\n`;
  for (let i = 0; i < changes.length; ) {
    let j = i;
    while (j + 1 < changes.length && changes[j + 1]! - changes[j]! - 1 <= 2 * context) j += 1;
    const lo = Math.max(0, changes[i]! - context);
    const hi = Math.min(ops.length, changes[j]! + context + 1);
    const hunk = ops.slice(lo, hi);
    const aLength = hunk.filter((op) => op.kind !== 'insert').length;
    const bLength = hunk.filter((op) => op.kind !== 'delete').length;
    out += `@@ -${range(aAt[lo]!, aLength)} +${range(bAt[lo]!, bLength)} @@\n`;
    for (const op of hunk) {
      out += PREFIX[op.kind] + op.line;
      if (!op.line.endsWith('\n')) out += '\n\\ No newline at end of file\n';
    }
    i = j + 1;
  }
  return out;
}
