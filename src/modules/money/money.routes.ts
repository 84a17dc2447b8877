import { defineRoute } from '../../platform/http/route.js';
import { RatesOutput, RatesQuery, RefreshOutput } from './money.schemas.js';
import type { MoneyService } from './money.service.js';

export function moneyRoutes(money: MoneyService) {
  return [
    defineRoute({
      method: 'GET',
      url: '/api/money/rates',
      summary: 'ECB euro reference rates in any base, for a day (weekends and holidays answer the last publication)',
      tags: ['money'],
      rule: { permission: 'data.read' },
      query: RatesQuery,
      response: RatesOutput,
      handler: async ({ ctx, query }) => money.getRates(ctx, query),
    }),
    defineRoute({
      method: 'POST',
      url: '/api/money/rates/refresh',
      summary: 'Fetch FX_RATES_URL now and add the days the store does not have (no body)',
      tags: ['money'],
      rule: { permission: 'admin' },
      response: RefreshOutput,
      handler: async ({ ctx }) => money.refreshRates(ctx),
    }),
  ];
}
