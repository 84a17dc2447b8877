export { moneyRoutes } from './money.routes.js';
export { moneyTools } from './money.tools.js';
export { MoneyService, type Conversion } from './money.service.js';
export { loadBundledRates, BUNDLED_SNAPSHOT } from './money.snapshot.js';
export { FeedFormatError, parseEcbFeed } from './ecb-feed.js';
