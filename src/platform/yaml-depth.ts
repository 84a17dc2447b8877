import { CST, Lexer, Parser } from 'yaml';

/** YAML nested deeper than this is refused before it is composed (hub files nest a few levels). */
export const MAX_YAML_DEPTH = 64;

/**
 * The `yaml` package composes documents recursively: a document nested a few thousand levels deep
 * (2 KB of `[`) overflows the stack, and after one such overflow the next can end the whole
 * process (V8 fails to compile a RegExp: a fatal out-of-memory, not an exception). Its CST parser
 * works with a stack of its own, so nesting is measured on the CST, walked without recursion,
 * before anything composes it. Answers the offset of the first node past `max` levels, if any.
 */
export function yamlTooDeep(text: string, max = MAX_YAML_DEPTH): number | undefined {
  // Flow nesting first, token by token: `[[[[…` is refused at its 65th bracket, not after a parse.
  let flow = 0;
  let offset = 0;
  for (const token of new Lexer().lex(text)) {
    const type = CST.tokenType(token);
    if (type === 'flow-map-start' || type === 'flow-seq-start') {
      flow += 1;
      if (flow > max) return offset;
    } else if (type === 'flow-map-end' || type === 'flow-seq-end') flow = Math.max(0, flow - 1);
    offset += token.length;
  }
  const pending: [CST.Token | undefined, number][] = [];
  for (const token of new Parser().parse(text)) pending.push([token, 0]);
  while (pending.length > 0) {
    const [node, depth] = pending.pop()!;
    if (!node) continue;
    if (node.type === 'document') pending.push([node.value, depth]);
    else if (node.type === 'block-map' || node.type === 'block-seq' || node.type === 'flow-collection') {
      if (depth >= max) return node.offset;
      for (const item of node.items) {
        if ('key' in item) pending.push([item.key ?? undefined, depth + 1]);
        pending.push([item.value, depth + 1]);
      }
    }
  }
  return undefined;
}
