/** Every failure the services raise on purpose; the error filter maps `code` to a status. */
export type DomainErrorCode =
  | 'NOT_FOUND'
  | 'VALIDATION_FAILED'
  | 'UNKNOWN_CLIENT'
  | 'DUPLICATE_INVOICE_NO'
  | 'DUPLICATE_ESTIMATE_NO'
  | 'INVOICE_OVERPAID'
  | 'TOTAL_BELOW_AMOUNT_PAID'
  | 'ESTIMATE_ALREADY_CONVERTED';

export const DOMAIN_ERROR_STATUS: Record<DomainErrorCode, number> = {
  NOT_FOUND: 404,
  VALIDATION_FAILED: 422,
  UNKNOWN_CLIENT: 422,
  DUPLICATE_INVOICE_NO: 409,
  DUPLICATE_ESTIMATE_NO: 409,
  INVOICE_OVERPAID: 422,
  TOTAL_BELOW_AMOUNT_PAID: 422,
  ESTIMATE_ALREADY_CONVERTED: 409,
};

export type FieldErrors = Record<string, string[]>;

export class DomainException extends Error {
  constructor(
    readonly code: DomainErrorCode,
    message: string,
    readonly errors?: FieldErrors,
  ) {
    super(message);
  }

  static notFound(resource: string, id: string): DomainException {
    return new DomainException('NOT_FOUND', `${resource} ${id} not found`);
  }

  /** A rule on one input field, answered like a validation failure. */
  static invalidField(field: string, message: string): DomainException {
    return new DomainException('VALIDATION_FAILED', 'The given data was invalid', {
      [field]: [message],
    });
  }
}
