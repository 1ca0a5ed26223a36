/**
 * The one error class of the library (contract section 7). Every failure the caller can act on is a
 * `ReceiptKitError` with a stable `code` and the HTTP `status` the server maps it to.
 */
export const ERROR_STATUS = {
  INVALID_OPTION: 400,
  INVALID_INPUT: 400,
  URL_REJECTED: 400,
  FEATURE_DISABLED: 403,
  CAMPAIGN_NOT_FOUND: 404,
  CAMPAIGN_EXISTS: 409,
  FILE_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  UNREADABLE_FILE: 422,
  OVERLOADED: 503,
  TIMEOUT: 504,
  ENGINE_CLOSED: 500,
  INTERNAL: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export class ReceiptKitError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  /** The option, field or parameter at fault, when there is one. */
  readonly field?: string;
  constructor(code: ErrorCode, message: string, opts: { field?: string; cause?: unknown } = {}) {
    super(message, opts.cause !== undefined ? { cause: opts.cause } : undefined);
    this.name = 'ReceiptKitError';
    this.code = code;
    this.status = ERROR_STATUS[code];
    if (opts.field !== undefined) this.field = opts.field;
  }
  toJSON(): { code: ErrorCode; status: number; message: string; field?: string } {
    return { code: this.code, status: this.status, message: this.message, ...(this.field ? { field: this.field } : {}) };
  }
}

export function isReceiptKitError(e: unknown): e is ReceiptKitError {
  return e instanceof ReceiptKitError;
}
