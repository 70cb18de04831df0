import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { FieldErrors } from '../../common/domain.exception';

/**
 * What every success carries besides the operation's payload (EnvelopeExpressAdapter adds it):
 * each operation's 200 schema is this and the payload together.
 */
export class SuccessEnvelopeDto {
  @ApiProperty({ type: 'string', enum: ['success'] })
  status: 'success';
}

/** Every failure, whatever its status (ErrorFilter). */
export class ErrorEnvelopeDto {
  @ApiProperty({ type: 'string', enum: ['error'] })
  status: 'error';

  @ApiProperty({ type: 'string', minLength: 1, example: 'The given data was invalid' })
  message: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'array', items: { type: 'string' }, minItems: 1 },
    example: { 'items.0.rate': ['rate must be a number at least 0 and below 10000000000000'] },
    description:
      'The parameters a refusal is about, each with its messages: every invalid parameter of a validation failure (422), and the parameter a conflict names (409, e.g. a taken invoice_no). Nested item fields are named like items.0.rate',
  })
  errors?: FieldErrors;
}
