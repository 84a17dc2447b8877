import { z } from 'zod';
import { ProjectRef } from '../projects/index.js';

/** Bodies up to 1 MiB (UTF-8) are accepted; the REST body limit (2 MiB) leaves room for JSON escaping. */
export const MAX_BODY_BYTES = 1024 * 1024;

export const BodyMd = z
  .string()
  .refine((s) => Buffer.byteLength(s, 'utf8') <= MAX_BODY_BYTES, 'must be at most 1 MiB (1,048,576 bytes of UTF-8)');

/** GET …/diff: both default to the neighbours of the current version (to = current, from = to − 1). */
export const VersionDiffQuery = z.object({
  project_id: ProjectRef,
  from: z.coerce.number().int().min(1).optional().describe('The older version; default to − 1.'),
  to: z.coerce.number().int().min(1).optional().describe('The newer version; default the current one.'),
});
export type VersionDiffQuery = z.infer<typeof VersionDiffQuery>;

export const RestoreVersionInput = z
  .object({ version: z.number().int().min(1).describe('The version whose content becomes the next version.') })
  .strict();

export const FieldChange = z.object({ field: z.string(), from: z.unknown(), to: z.unknown() });
export type FieldChange = z.infer<typeof FieldChange>;

/** The fields whose values differ (compared as JSON, so metadata objects compare by content). */
export function fieldChanges(pairs: [string, unknown, unknown][]): FieldChange[] {
  return pairs
    .filter(([, from, to]) => JSON.stringify(from) !== JSON.stringify(to))
    .map(([field, from, to]) => ({ field, from, to }));
}
