import { defineTool, READ_ONLY } from '../../mcp/kit/tool.js';
import { RatesShape, RatesToolInput } from './money.schemas.js';
import type { MoneyService } from './money.service.js';

const SUMMARY_RATES = 25;

export function moneyTools(money: MoneyService) {
  return [
    defineTool({
      name: 'get_exchange_rates',
      title: 'Get exchange rates',
      description:
        'ECB reference exchange rates for a day, in any base currency. Use it to convert amounts between currencies.',
      input: RatesToolInput,
      view: 'rates',
      permission: 'data.read',
      annotations: READ_ONLY,
      dataShape: RatesShape,
      run: async (ctx, input) => {
        const answer = await money.getRates(ctx, input);
        const entries = Object.entries(answer.rates);
        return {
          kind: 'enveloped',
          summary: [
            `ECB rates for 1 ${answer.base}, published ${answer.rate_date}${answer.rate_date === answer.requested_date ? '' : ` (last publication on or before ${answer.requested_date})`}.`,
            ...(answer.stale
              ? [
                  `STALE: the newest rate is more than 14 days older than ${answer.requested_date}; treat conversions as approximate.`,
                ]
              : []),
            ...entries.slice(0, SUMMARY_RATES).map(([code, rate]) => `- ${code} ${rate}`),
            ...(entries.length > SUMMARY_RATES ? [`… ${entries.length - SUMMARY_RATES} more in data.rates.`] : []),
          ],
          projectId: null,
          provenance: {
            source: answer.source,
            rate_date: answer.rate_date,
            stale: answer.stale,
            method: answer.base === 'EUR' ? 'ecb_reference' : 'triangulated_via_eur',
          },
          data: { ...answer },
        };
      },
    }),
  ];
}
