import { z } from 'zod';
import { defineTool, READ_ONLY } from '../../mcp/kit/tool.js';
import { ProjectRef } from '../projects/index.js';
import type { DataQualityService } from './dq.service.js';

const LEDGER_DEFAULT = 50;
const LEDGER_MAX = 200;

const GetDqInput = z
  .object({
    project_id: ProjectRef,
    limit: z
      .number()
      .int()
      .min(1)
      .max(LEDGER_MAX)
      .optional()
      .describe(`Ledger entries, newest first (default ${LEDGER_DEFAULT}).`),
    cursor: z.string().max(500).optional().describe('data.next_cursor of the previous answer.'),
  })
  .strict();

export function dqTools(dq: DataQualityService) {
  return [
    defineTool({
      name: 'get_data_quality',
      title: 'Get data quality',
      description:
        "A project's data-quality health: freshness per datastream and failed checks. Use it before trusting numbers that look wrong.",
      input: GetDqInput,
      view: 'data-quality',
      permission: 'data.read',
      annotations: READ_ONLY,
      dataShape: {
        health: z.object({
          pass_rate: z.number().nullable(),
          checks_last_7_days: z.number(),
          freshness: z.array(z.record(z.string(), z.unknown())),
          open_failures: z.array(z.record(z.string(), z.unknown())),
        }),
        ledger: z.array(z.record(z.string(), z.unknown())),
        next_cursor: z.string().nullable().describe('Pass as cursor for older ledger entries; null when none.'),
      },
      run: async (ctx, input) => {
        const r = await dq.status(ctx, input.project_id, {
          limit: input.limit ?? LEDGER_DEFAULT,
          cursor: input.cursor,
        });
        const h = r.health;
        return {
          kind: 'enveloped',
          summary: [
            `Data quality of ${r.project_id}: pass rate ${h.pass_rate === null ? 'n/a (no checks in 7 days)' : `${(h.pass_rate * 100).toFixed(1)}%`} over ${h.checks_last_7_days} checks in 7 days.`,
            ...h.freshness
              .slice(0, 10)
              .map(
                (f) =>
                  `- freshness ${f.name}: ${f.last_date ? `newest ${f.last_date}, ${f.lag_days} day(s) behind` : 'no data yet'}`,
              ),
            h.open_failures.length ? `${h.open_failures.length} open failure(s):` : 'No open failure.',
            ...h.open_failures
              .slice(0, 12)
              .map((c) => `- ${c.status} ${c.monitor} (${c.datastream_id ?? 'project'}): ${c.message.slice(0, 150)}`),
            `Ledger: the ${r.ledger.length} newest check(s) in data.ledger` +
              (r.next_cursor ? `; older ones: call get_data_quality with cursor "${r.next_cursor}".` : '.'),
          ],
          projectId: r.project_id,
          provenance: { source: 'dq_checks', resolved_from: r.resolved.resolvedFrom },
          data: { health: h, ledger: r.ledger, next_cursor: r.next_cursor },
        };
      },
    }),
  ];
}
