export {
  type AccessTokens,
  type AnyProvider,
  type CanonicalRecord,
  countedSleep,
  type DateWindow,
  defaultSourceOutbound,
  type OAuthSettings,
  type ProviderContext,
  ProviderError,
  type SourceOutbound,
  type VerifyOutcome,
} from './provider.js';
export { PROVIDER_NAMES, providerFor } from './registry.js';
export { addDays, dayInZone, isCalendarDate } from './dates.js';
export { type OAuthSecrets, requestAccessToken } from './oauth.js';
export { DEMO_INCIDENTS, demoProvider } from './demo.provider.js';
export { type ExportOptions, MAX_RECORD_BYTES, readExport } from './export-reader.js';
export { ProviderCatalogueOutput, providerCatalogue } from './providers.catalogue.js';
export { providerRoutes } from './providers.routes.js';
export { timestampOfMicros } from './bigquery.rows.js';
export { parseServiceAccount, signAssertion } from './service-account.js';
