// A unified line diff of two texts (issue 24: a proposal against its base and the current version).
// Kept in one file with one export so a shared diff (issue 24 item 3) can replace it.

const CONTEXT = 3;
/** Above this many line pairs the LCS table is not built: the diff shows a whole replacement. */
const MAX_CELLS = 4_000_000;

type Op = { kind: ' ' | '-' | '+'; line: string };

function lines(text: string): string[] {
  if (text === '') return [];
  const split = text.split('\n');
  if (split[split.length - 1] === '') split.pop();
  return split;
}

function operations(a: string[], b: string[]): Op[] {
  // Common head and tail first: edits are usually local, and the table shrinks to the changed middle.
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const head: Op[] = a.slice(0, start).map((line) => ({ kind: ' ', line }));
  const tail: Op[] = a.slice(endA).map((line) => ({ kind: ' ', line }));
  const midA = a.slice(start, endA);
  const midB = b.slice(start, endB);
  const n = midA.length;
  const m = midB.length;
  const middle: Op[] = [];
  if (n * m > MAX_CELLS) {
    for (const line of midA) middle.push({ kind: '-', line });
    for (const line of midB) middle.push({ kind: '+', line });
    return [...head, ...middle, ...tail];
  }
  // lcs[i][j]: length of the longest common subsequence of midA[i..] and midB[j..].
  const lcs = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i]![j] = midA[i] === midB[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
    }
  }
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && midA[i] === midB[j]) {
      middle.push({ kind: ' ', line: midA[i]! });
      i++;
      j++;
    } else if (i < n && (j === m || lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) {
      middle.push({ kind: '-', line: midA[i]! });
      i++;
    } else {
      middle.push({ kind: '+', line: midB[j]! });
      j++;
    }
  }
  return [...head, ...middle, ...tail];
}

/**
 * `diff -u` style text: `--- from` / `+++ to` headers and `@@ -a,b +c,d @@` hunks with three lines of
 * context. Empty string when the texts are equal.
 */
export function unifiedDiff(from: string, to: string, labels: { from: string; to: string }): string {
  const ops = operations(lines(from), lines(to));
  if (ops.every((op) => op.kind === ' ')) return '';
  const out = [`--- ${labels.from}`, `+++ ${labels.to}`];
  // Positions (1-based line numbers) of each op in the old and new text.
  const posA: number[] = [];
  const posB: number[] = [];
  let a = 1;
  let b = 1;
  for (const op of ops) {
    posA.push(a);
    posB.push(b);
    if (op.kind !== '+') a++;
    if (op.kind !== '-') b++;
  }
  let k = 0;
  while (k < ops.length) {
    if (ops[k]!.kind === ' ') {
      k++;
      continue;
    }
    const first = Math.max(0, k - CONTEXT);
    let last = k;
    // Extend the hunk while the next change is within 2×CONTEXT unchanged lines.
    for (let x = k; x < ops.length; x++) {
      if (ops[x]!.kind !== ' ') last = x;
      else if (x - last > 2 * CONTEXT) break;
    }
    const end = Math.min(ops.length - 1, last + CONTEXT);
    const hunk = ops.slice(first, end + 1);
    const countA = hunk.filter((op) => op.kind !== '+').length;
    const countB = hunk.filter((op) => op.kind !== '-').length;
    const startA = countA === 0 ? posA[first]! - 1 : posA[first]!;
    const startB = countB === 0 ? posB[first]! - 1 : posB[first]!;
    out.push(`@@ -${startA},${countA} +${startB},${countB} @@`);
    for (const op of hunk) out.push(`${op.kind}${op.line}`);
    k = end + 1;
  }
  return `${out.join('\n')}\n`;
}
