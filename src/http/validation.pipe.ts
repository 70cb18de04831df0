import { ArgumentMetadata, ValidationError, ValidationPipe } from '@nestjs/common';
import { DomainException, FieldErrors } from '../common/domain.exception';
import { cacheValidationMetadata } from './validation-metadata-cache';

/** Nested errors are named by path: `items.0.rate`. */
export function flattenValidationErrors(errors: ValidationError[], parent = ''): FieldErrors {
  const fields: FieldErrors = {};
  for (const error of errors) {
    const path = parent ? `${parent}.${error.property}` : error.property;
    if (error.constraints) fields[path] = Object.values(error.constraints);
    Object.assign(fields, flattenValidationErrors(error.children ?? [], path));
  }
  return fields;
}

/**
 * Validates request input DTOs. Path parameters are left as text for their own pipes: Nest's
 * primitive conversion would turn "0x10" into 16 and "abc" into NaN before they are checked.
 */
class InputValidationPipe extends ValidationPipe {
  protected override transformPrimitive(value: unknown, _metadata: ArgumentMetadata): unknown {
    return value;
  }
}

/** Validates every request input DTO; unknown fields are dropped, failures answer 422. */
export function createValidationPipe(): ValidationPipe {
  cacheValidationMetadata();
  return new InputValidationPipe({
    transform: true,
    whitelist: true,
    forbidUnknownValues: false,
    validateCustomDecorators: true,
    stopAtFirstError: true,
    exceptionFactory: (errors) =>
      new DomainException(
        'VALIDATION_FAILED',
        'The given data was invalid',
        flattenValidationErrors(errors),
      ),
  });
}
