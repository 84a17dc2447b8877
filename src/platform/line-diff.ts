/**
 * Line diffs (Myers' O(ND) algorithm) and their unified-diff text, as `diff -u` writes it.
 * No business rules: the Skills and Knowledge diffs build on it.
 *
 * Kept hand-written because the `diff` package measured slower where it matters: the
 * same edit scripts, but 8 to 12 times the time on large, heavily edited bodies and 3 to 5 times at
 * the edit cap, which is how long a diff request holds the event loop (`npm run bench:parsers`,
 * BENCHMARKS.md "parsers"). It parses nothing: lines in, operations out, bounded by MAX_MYERS_EDITS.
 */

export interface DiffOp {
  kind: 'equal' | 'delete' | 'insert';
  /** The line with its terminating "\n" (the last line of a text may have none). */
  line: string;
}

/**
 * Beyond this many differing lines the trace Myers keeps for the way back would grow past ~16 MB
 * (it is quadratic in the edit count), so the middle is given as one block replaced: still a
 * correct diff, only not the shortest.
 */
export const MAX_MYERS_EDITS = 2000;

/** The lines of `text`, each with its "\n"; a text without a final newline ends in a line without one. */
export function splitLines(text: string): string[] {
  return text === '' ? [] : (text.match(/[^\n]*\n|[^\n]+$/g) ?? []);
}

/** A shortest edit script turning `a` into `b` (up to MAX_MYERS_EDITS edits, then a block replace). */
export function diffLines(a: string[], b: string[], maxEdits = MAX_MYERS_EDITS): DiffOp[] {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start += 1;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA -= 1;
    endB -= 1;
  }
  const equal = (lines: string[]): DiffOp[] => lines.map((line) => ({ kind: 'equal', line }));
  const middleA = a.slice(start, endA);
  const middleB = b.slice(start, endB);
  const middle = myers(middleA, middleB, maxEdits) ?? [
    ...middleA.map((line): DiffOp => ({ kind: 'delete', line })),
    ...middleB.map((line): DiffOp => ({ kind: 'insert', line })),
  ];
  return [...equal(a.slice(0, start)), ...middle, ...equal(a.slice(endA))];
}

/** Lines as small integers, so the inner loop compares numbers rather than strings. */
function intern(a: string[], b: string[]): { A: Int32Array; B: Int32Array } {
  const ids = new Map<string, number>();
  const idOf = (line: string) => {
    let id = ids.get(line);
    if (id === undefined) {
      id = ids.size;
      ids.set(line, id);
    }
    return id;
  };
  return { A: Int32Array.from(a, idOf), B: Int32Array.from(b, idOf) };
}

function myers(a: string[], b: string[], maxEdits: number): DiffOp[] | undefined {
  const n = a.length;
  const m = b.length;
  if (n === 0 || m === 0) {
    return [
      ...a.map((line): DiffOp => ({ kind: 'delete', line })),
      ...b.map((line): DiffOp => ({ kind: 'insert', line })),
    ];
  }
  const { A, B } = intern(a, b);
  const offset = n + m;
  const v = new Int32Array(2 * offset + 2);
  // trace[d] holds v over diagonals -d..d as it stood after round d.
  const trace: Int32Array[] = [];
  const limit = Math.min(offset, maxEdits);
  for (let d = 0; d <= limit; d++) {
    for (let k = -d; k <= d; k += 2) {
      let x =
        k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && A[x] === B[y]) {
        x += 1;
        y += 1;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) return backtrack(a, b, trace, d);
    }
    trace.push(v.slice(offset - d, offset + d + 1));
  }
  return undefined;
}

function backtrack(a: string[], b: string[], trace: Int32Array[], edits: number): DiffOp[] {
  const out: DiffOp[] = [];
  let x = a.length;
  let y = b.length;
  for (let d = edits; d > 0; d--) {
    const before = trace[d - 1]!;
    const at = (k: number) => before[k + d - 1]!;
    const k = x - y;
    const down = k === -d || (k !== d && at(k - 1) < at(k + 1));
    const prevK = down ? k + 1 : k - 1;
    const prevX = at(prevK);
    const prevY = prevX - prevK;
    const midX = down ? prevX : prevX + 1;
    const midY = down ? prevY + 1 : prevY;
    while (x > midX && y > midY) {
      x -= 1;
      y -= 1;
      out.push({ kind: 'equal', line: a[x]! });
    }
    if (down) out.push({ kind: 'insert', line: b[prevY]! });
    else out.push({ kind: 'delete', line: a[prevX]! });
    x = prevX;
    y = prevY;
  }
  while (x > 0 && y > 0) {
    x -= 1;
    y -= 1;
    out.push({ kind: 'equal', line: a[x]! });
  }
  return out.reverse();
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
