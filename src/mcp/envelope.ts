import { z, type ZodRawShape } from 'zod';
import { RESULT_JSON, type ResultJsonParts } from './fast-path/result-json.js';
import type { EnvelopedAnswer } from './kit/tool.js';
import { MAX_SUMMARY_LINES, MAX_SUMMARY_LINE_CHARS, truncateCodePoints } from './kit/envelope-limits.js';

export const APP_PAYLOAD_META_KEY = 'service.app_payload';

export const WithheldDescriptor = z
  .object({ withheld: z.literal('moved_to_app_channel'), bytes: z.number().int() })
  .describe('This key was larger than ENVELOPE_INLINE_BYTES; the full value is in _meta["service.app_payload"].')
  // An id makes JSON Schema conversion emit it once per tool under $defs and $ref it from each data
  // key: written inline it was a large share of the tools/list answer (BENCHMARKS.md, mcp notes).
  .meta({ id: 'withheld' });

export const EnvelopeMeta = z.object({
  tool: z.string(),
  project_id: z.string().nullable(),
  provenance: z.record(z.string(), z.unknown()),
});

/** The outputSchema of an enveloped tool: every data key may be replaced by the withheld descriptor. */
export function envelopeOutputSchema(dataShape: ZodRawShape) {
  const withholdable = Object.fromEntries(
    Object.entries(dataShape).map(([key, schema]) => [key, z.union([schema as z.ZodType, WithheldDescriptor])]),
  );
  return z.object({ meta: EnvelopeMeta, data: z.object(withholdable) });
}

export function summaryText(lines: string[]): string {
  const clipped = lines.map((line) => truncateCodePoints(line.replace(/[\r\n]+/g, ' '), MAX_SUMMARY_LINE_CHARS));
  if (clipped.length > MAX_SUMMARY_LINES) {
    const kept = clipped.slice(0, MAX_SUMMARY_LINES - 1);
    kept.push(`… ${clipped.length - kept.length} more lines in the structured result.`);
    return kept.join('\n');
  }
  return clipped.join('\n');
}

export interface EnvelopeResult {
  [key: string]: unknown;
  /** The JSON text of the members below (result-json.ts). */
  [RESULT_JSON]: ResultJsonParts;
  content: { type: 'text'; text: string }[];
  structuredContent: { meta: z.infer<typeof EnvelopeMeta>; data: Record<string, unknown> };
  _meta: Record<string, unknown>;
}

/**
 * Builds the dual-channel result every tool answers with: the prompt sees a short summary and the inline
 * data; a `data.<key>` over the byte budget is replaced by the withheld descriptor; the app
 * channel carries everything, withholding nothing. Each data key is serialized once, to measure
 * it; that text rides on the result (result-json.ts) so the answer is not serialized again. A
 * result is not changed after it is built (the fast path's answer cache freezes it).
 */
export function buildEnvelope(tool: string, answer: EnvelopedAnswer, inlineBytes: number): EnvelopeResult {
  const meta = { tool, project_id: answer.projectId, provenance: answer.provenance };
  const inline: Record<string, unknown> = {};
  let inlineJson = '';
  let fullJson = '';
  for (const key of Object.keys(answer.data)) {
    const value = answer.data[key];
    const json = JSON.stringify(value);
    // A value with no JSON form (undefined) is left out of the object's JSON, as JSON.stringify does.
    if (json === undefined) {
      inline[key] = value;
      continue;
    }
    const bytes = Buffer.byteLength(json, 'utf8');
    const member = `${fullJson === '' ? '' : ','}${JSON.stringify(key)}:`;
    fullJson += member + json;
    if (bytes > inlineBytes && !answer.neverWithhold?.includes(key)) {
      const withheld = { withheld: 'moved_to_app_channel', bytes };
      inline[key] = withheld;
      inlineJson += member + JSON.stringify(withheld);
    } else {
      inline[key] = value;
      inlineJson += member + json;
    }
  }
  const text = summaryText(answer.summary);
  const metaJson = JSON.stringify(meta);
  const content = [{ type: 'text' as const, text }];
  const structuredContent = { meta, data: inline };
  const resultMeta = { [APP_PAYLOAD_META_KEY]: { meta, data: answer.data } };
  return {
    content,
    structuredContent,
    _meta: resultMeta,
    [RESULT_JSON]: {
      of: { content, structuredContent, _meta: resultMeta },
      content: `[{"type":"text","text":${JSON.stringify(text)}}]`,
      structuredContent: `{"meta":${metaJson},"data":{${inlineJson}}}`,
      metaMembers: `${JSON.stringify(APP_PAYLOAD_META_KEY)}:{"meta":${metaJson},"data":{${fullJson}}}`,
    },
  };
}
