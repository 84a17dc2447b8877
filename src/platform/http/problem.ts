import { type AppError, RateLimitedError, ValidationError } from '../errors.js';

/** RFC 9457 problem details with our stable `code`. */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: string;
  instance?: string;
  request_id?: string;
  errors?: { path: string; message: string }[];
  [extra: string]: unknown;
}

export const PROBLEM_TYPE_BASE = 'https://context-hub.dev/problems/';

export function problemFromError(error: AppError, requestId?: string): Problem {
  const problem: Problem = {
    type: `${PROBLEM_TYPE_BASE}${error.code}`,
    title: error.title,
    status: error.status,
    detail: error.message,
    code: error.code,
    ...error.details,
  };
  if (requestId) problem.request_id = requestId;
  if (error instanceof ValidationError) problem.errors = error.errors;
  if (error instanceof RateLimitedError) problem.retry_after_seconds = error.retryAfterSeconds;
  return problem;
}

export function internalProblem(requestId?: string): Problem {
  return {
    type: `${PROBLEM_TYPE_BASE}internal_error`,
    title: 'Internal error',
    status: 500,
    detail: 'The service failed to handle this request. It was logged with the request id; retrying may help.',
    code: 'internal_error',
    ...(requestId ? { request_id: requestId } : {}),
  };
}
