import type { components } from './schema';

export type ApiErrorBody = components['schemas']['ApiError'];

/**
 * An error answer the caller did not take as a value: what `paginate` throws (an async iterator has no
 * `{ data, error }` to return). `code` is the API's stable machine code; `message` is for people.
 */
export class ClinicApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly errors: Record<string, string[]> | undefined;
  /** X-Request-Id of the answer: quote it to support. */
  readonly requestId: string | null;

  constructor(response: Response, body: unknown) {
    const error = errorBody(body, response.status);
    super(error.message);
    this.name = 'ClinicApiError';
    this.status = response.status;
    this.code = error.code;
    this.errors = error.errors;
    this.requestId = response.headers.get('x-request-id');
  }
}

/** The `{ message, code, errors? }` envelope, or one made from the status when a proxy answered instead. */
function errorBody(body: unknown, status: number): ApiErrorBody {
  if (
    typeof body === 'object' &&
    body !== null &&
    'code' in body &&
    'message' in body &&
    typeof body.code === 'string' &&
    typeof body.message === 'string'
  ) {
    const errors =
      'errors' in body && typeof body.errors === 'object' && body.errors !== null
        ? (body.errors as Record<string, string[]>)
        : undefined;
    return { code: body.code, message: body.message, errors };
  }
  return { code: `http_${status}`, message: typeof body === 'string' && body ? body.slice(0, 200) : `HTTP ${status}` };
}
