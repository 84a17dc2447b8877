import { z } from 'zod';
import { ProjectId, ProjectRef } from '../projects/index.js';

/** Rows a report answers at most (run_report's limit, GET /api/reports/run's limit). */
export const REPORT_MAX_ROWS = 1000;

export const RunReportInput = z
  .object({
    project_id: ProjectRef,
    name: z.string().trim().min(1).max(120).describe('Report definition name.'),
    limit: z.number().int().min(1).max(REPORT_MAX_ROWS).optional().describe('Rows at most (default 200).'),
  })
  .strict();

export const RunReportQuery = z.object({
  project_id: ProjectId,
  name: z.string().trim().min(1).max(120),
  limit: z.coerce.number().int().min(1).max(REPORT_MAX_ROWS).optional(),
});
