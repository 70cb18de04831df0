import { parseId } from './input-rules';

/** Every failure the services raise on purpose, with the status the error filter answers. */
export const DOMAIN_ERROR_STATUS = {
  NOT_FOUND: 404,
  VALIDATION_FAILED: 422,
  UNKNOWN_CLIENT: 422,
  DUPLICATE_INVOICE_NO: 409,
  DUPLICATE_ESTIMATE_NO: 409,
  INVOICE_OVERPAID: 422,
  TOTAL_BELOW_AMOUNT_PAID: 422,
  ESTIMATE_ALREADY_CONVERTED: 409,
  IDEMPOTENCY_CONFLICT: 409,
  UNKNOWN_INVOICE: 422,
  REFUND_EXCEEDS_CASH_HELD: 422,
  CREDIT_EXCEEDS_INVOICE: 422,
  CREDIT_EXCEEDS_BALANCE: 422,
  DUPLICATE_CREDIT_NOTE_NO: 409,
  INVOICE_VOID: 409,
  INVOICE_HOLDS_CASH: 409,
  WEBHOOK_DESTINATION_REFUSED: 422,
  DELIVERY_IN_PROGRESS: 409,
  SEQUENCE_ALREADY_USED: 409,
  NUMBER_FROM_SERIES: 409,
  DOCUMENT_DRAFT: 409,
  NOT_A_DRAFT: 409,
  SCHEDULE_NOT_ACTIVE: 409,
  SCHEDULE_NOT_PAUSED: 409,
  EINVOICE_INCOMPLETE: 422,
  EINVOICE_REFUSED: 422,
  DUPLICATE_EINVOICE: 409,
} as const;

export type DomainErrorCode = keyof typeof DOMAIN_ERROR_STATUS;

/** The codes answered with 422: each names its fields in `errors` (docs/rules.md, Errors). */
export type FieldErrorCode = {
  [Code in DomainErrorCode]: (typeof DOMAIN_ERROR_STATUS)[Code] extends 422 ? Code : never;
}[DomainErrorCode];

export type FieldErrors = Record<string, string[]>;

export class DomainException extends Error {
  /** A 422 code cannot be raised without the fields it is about. */
  constructor(code: FieldErrorCode, message: string, errors: FieldErrors);
  constructor(
    code: Exclude<DomainErrorCode, FieldErrorCode>,
    message: string,
    errors?: FieldErrors,
  );
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

  /** The id an `id` parameter names (digits, any length); 404 naming `resource` when none. */
  static idOrNotFound(resource: string, idText: string): number {
    const id = parseId(idText);
    if (id === null) throw DomainException.notFound(resource, idText);
    return id;
  }

  /** A rule on one input field, answered like a validation failure. */
  static invalidField(field: string, message: string): DomainException {
    return new DomainException('VALIDATION_FAILED', 'The given data was invalid', {
      [field]: [message],
    });
  }
}
