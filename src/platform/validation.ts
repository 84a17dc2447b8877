import { z, type ZodType } from 'zod';
import { ValidationError, type FieldViolation } from './errors.js';

export function violationsOf(error: z.ZodError): FieldViolation[] {
  return error.issues.map((issue) => ({
    path: issue.path.map(String).join('.'),
    message: issue.message,
  }));
}

/** Parses input with a module's schema; every violation becomes one `errors[]` entry. */
export function parseInput<S extends ZodType>(schema: S, input: unknown, where?: string): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const violations = violationsOf(result.error).map((v) => ({
    ...v,
    path: where ? (v.path ? `${where}.${v.path}` : where) : v.path,
  }));
  throw new ValidationError(violations);
}
