import { AppError, ValidationError } from '../../platform/errors.js';

/** The rates feed could not be fetched or did not validate; nothing was written. */
export class FxFeedError extends AppError {
  readonly status = 502;
  readonly title = 'Bad gateway';
}

/** A currency no stored rate names: the answer lists the codes that work. */
export class UnknownCurrencyError extends ValidationError {
  override readonly details: Record<string, unknown>;
  constructor(violations: { path: string; code: string }[], supported: string[]) {
    super(
      violations.map((v) => ({
        path: v.path,
        message: `${v.code} is not a supported currency; supported: ${supported.join(', ')}`,
      })),
      `Unknown currency ${violations.map((v) => v.code).join(', ')}. Supported: ${supported.join(', ')}.`,
      'unknown_currency',
      `Use one of the supported ISO 4217 codes: ${supported.join(', ')}.`,
    );
    this.details = { supported_currencies: supported };
  }
}
