import { evaluate, lookbackDays } from '../../src/modules/anomalies/index.js';
import type { EffectiveSettings } from '../../src/modules/anomalies/index.js';
import { addDays } from '../../src/platform/calendar.js';
import type { SqlExecutor } from '../../src/platform/db/database.js';
import type { RunningService } from './service.js';

/**
 * Evaluates [from, to] of one project in one transaction, as the service does (the history its
 * settings look back over), and returns the text of every statement it issued: for tests that
 * assert which reads a pass makes or skips.
 */
export async function evaluateRecorded(
  service: RunningService,
  project: string,
  from: string,
  to: string,
  settings: EffectiveSettings,
): Promise<string[]> {
  const issued: string[] = [];
  await service.app.db.transaction(async (tx) => {
    const recorder: SqlExecutor = {
      query: (text, params) => {
        issued.push(text);
        return tx.query(text, params);
      },
    };
    await evaluate(recorder, project, from, to, addDays(from, -lookbackDays(settings)), settings);
  });
  return issued;
}
