/**
 * The nearest valid spelling of an identifier that a fixed format refuses (a Skill name, a
 * Knowledge topic_id), so a refusal can say what to send instead of only what is wrong.
 * ASCII-folded and lowercased; any run of other characters becomes one separator (the first of
 * `separators`), a run of separators keeps its first, and none is left at either end.
 * Undefined when nothing valid remains (no letter or digit).
 */
export function suggestIdentifier(input: string, separators: string, maxLength: number): string | undefined {
  const sep = separators[0]!;
  let out = '';
  let pendingSep = '';
  for (const ch of input
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()) {
    if (/[a-z0-9]/.test(ch)) {
      if (pendingSep && out) out += pendingSep;
      pendingSep = '';
      out += ch;
      if (out.length >= maxLength) break;
    } else if (!pendingSep) {
      pendingSep = separators.includes(ch) ? ch : sep;
    }
  }
  return out || undefined;
}

/** "Use "x" instead." when a valid spelling exists, else nothing (the message before it stands alone). */
export function proposal(input: unknown, separators: string, maxLength: number): string {
  if (typeof input !== 'string') return '';
  const suggestion = suggestIdentifier(input, separators, maxLength);
  return suggestion && suggestion !== input ? ` Use "${suggestion}" instead.` : '';
}
