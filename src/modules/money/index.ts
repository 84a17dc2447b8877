export { moneyRoutes } from './money.routes.js';
export { moneyTools } from './money.tools.js';
export { MoneyService, type Conversion } from './money.service.js';
export { loadBundledRates } from './money.snapshot.js';
