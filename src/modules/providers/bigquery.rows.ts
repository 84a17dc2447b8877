import { ProviderError } from './provider.js';

/**
 * BigQuery's REST rows (`{f:[{v}]}` in the order of `schema.fields`) as plain objects. Values stay
 * the exact strings BigQuery sends (NUMERIC and BIGNUMERIC decimals, INT64, FLOAT64 including
 * `NaN`), converted once by the mapping; TIMESTAMP, asked for as int64 microseconds, becomes an exact
 * ISO instant (a float of seconds would round); RECORD and REPEATED fields nest.
 */
export interface BigQueryField {
  name: string;
  type: string;
  mode?: string;
  fields?: BigQueryField[];
}

type Cell = { v?: unknown } | null | undefined;

/** Microseconds since the epoch → `YYYY-MM-DDTHH:MM:SS.ffffffZ`, without passing through a float. */
export function timestampOfMicros(text: string): string {
  if (!/^-?\d+$/.test(text)) throw new ProviderError(`a TIMESTAMP is not int64 microseconds: ${text.slice(0, 40)}`);
  const micros = BigInt(text);
  let seconds = micros / 1_000_000n;
  let rest = micros % 1_000_000n;
  if (rest < 0n) {
    rest += 1_000_000n;
    seconds -= 1n;
  }
  const iso = new Date(Number(seconds) * 1000).toISOString().slice(0, 19);
  return `${iso}.${rest.toString().padStart(6, '0')}Z`;
}

function scalar(field: BigQueryField, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  const type = field.type.toUpperCase();
  if (type === 'RECORD' || type === 'STRUCT') return decodeRow((value as { f?: Cell[] }).f ?? [], field.fields ?? []);
  if (type === 'TIMESTAMP') return timestampOfMicros(String(value));
  return value;
}

function decodeValue(field: BigQueryField, value: unknown): unknown {
  if (field.mode === 'REPEATED') return Array.isArray(value) ? value.map((c) => scalar(field, (c as Cell)?.v)) : [];
  return scalar(field, value);
}

/**
 * `only`: the top-level columns anyone reads (the mapping's); the others are left out rather than
 * decoded for every row (a TIMESTAMP nobody maps costs a BigInt and a Date each).
 */
export function decodeRow(cells: Cell[], fields: BigQueryField[], only?: ReadonlySet<string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (let i = 0; i < fields.length; i += 1) {
    const field = fields[i]!;
    if (only && !only.has(field.name)) continue;
    out[field.name] = decodeValue(field, cells[i]?.v);
  }
  return out;
}
