import { describe, expect, it } from 'vitest';
import {
  dayToEpochSeconds,
  fmtDay,
  fmtDelta,
  fmtInstant,
  fmtMoney,
  fmtNumber,
  fmtShare,
} from '../../web/shared/format.js';

const en = { locale: 'en-US', timeZone: 'UTC' };
const de = { locale: 'de-DE', timeZone: 'Europe/Berlin' };
// Intl writes a narrow no-break space in some locales; compare with plain spaces.
const plain = (s: string) => s.replace(/[\u00a0\u202f]/g, ' ');

describe('view formatting (web/shared/format.ts)', () => {
  it('numbers follow the locale; a missing value is a dash, never 0', () => {
    expect(fmtNumber(1234567.891, en)).toBe('1,234,567.89');
    expect(plain(fmtNumber(1234567.891, de))).toBe('1.234.567,89');
    expect(fmtNumber(-28.31, en)).toBe('\u221228.31');
    // What rounds to zero is zero, not a loss: never "−0".
    expect(fmtNumber(-0.001, en)).toBe('0');
    expect(fmtNumber(-0, en)).toBe('0');
    expect(fmtNumber(null, en)).toBe('–');
    expect(fmtNumber(Number.NaN, en)).toBe('–');
  });

  it("money carries the project's currency in the host's locale, and survives an unknown code", () => {
    expect(fmtMoney(1234.5, 'USD', en)).toBe('$1,234.50');
    expect(plain(fmtMoney(1234.5, 'EUR', de))).toBe('1.234,50 €');
    expect(fmtMoney(-30.04, 'USD', en)).toBe('\u2212$30.04');
    expect(fmtMoney(-0.001, 'USD', en)).toBe('$0.00');
    // Each currency with its own decimals: yen has none, so −0.3 yen is zero, not a loss.
    expect(fmtMoney(1234.5, 'JPY', en)).toBe('¥1,235');
    expect(fmtMoney(-0.3, 'JPY', en)).toBe('¥0');
    expect(fmtMoney(-3, 'JPY', en)).toBe('\u2212¥3');
    expect(fmtMoney(12, null, en)).toBe('12');
    expect(fmtMoney(12, 'not-a-code', en)).toBe('12 not-a-code');
  });

  it('deltas are signed, so a drop never reads as a gain', () => {
    expect(fmtDelta(0.125, en)).toBe('+12.5%');
    // The minus sign (U+2212), as every signed figure of the views writes it, not a hyphen.
    expect(fmtDelta(-0.03, en)).toBe('\u22123%');
    expect(plain(fmtDelta(-0.03, de))).toBe('\u22123 %');
    expect(fmtDelta(0, en)).toBe('0%');
    expect(fmtDelta(null, en)).toBe('–');
    expect(fmtDelta(Number.POSITIVE_INFINITY, en)).toBe('–');
  });

  it('shares are whole percent with the minus sign; one that rounds to zero has no sign', () => {
    expect(fmtShare(1.07, en)).toBe('107%');
    expect(fmtShare(-0.05, en)).toBe('\u22125%');
    expect(plain(fmtShare(-0.05, de))).toBe('\u22125 %');
    expect(fmtShare(-0.004, en)).toBe('0%');
    expect(fmtShare(null, en)).toBe('–');
  });

  it('calendar days are never moved by a time zone; instants are', () => {
    expect(fmtDay('2026-03-01', { locale: 'en-US', timeZone: 'America/Los_Angeles' })).toBe('Mar 1, 2026');
    expect(fmtDay('2026-03-01', en, 'short')).toBe('Mar 1');
    expect(fmtDay('not a day', en)).toBe('not a day');
    expect(fmtInstant('2026-03-01T23:30:00Z', en)).toContain('Mar 1, 2026');
    expect(fmtInstant('2026-03-01T23:30:00Z', de)).toContain('02.03.2026');
    expect(fmtInstant(null, en)).toBe('–');
    expect(dayToEpochSeconds('1970-01-02')).toBe(86_400);
  });
});
