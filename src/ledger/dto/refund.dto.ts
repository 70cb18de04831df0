import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsOptional, IsString, MaxLength } from 'class-validator';
import { IsDateInput, IsDecimalInput, IsIdInput, IsOneOf, Trim } from '../../common/input-rules';
import { Decimal } from '../../common/money/decimal';
import {
  DateInputProperty,
  DecimalInputProperty,
  IdInputProperty,
  ListedValueInputProperty,
} from '../../openapi/schema-property.decorator';
import { PAYMENT_METHODS, PaymentMethod } from '../../invoices/domain/payment-status';

/** A reason given for a correction (refund, void, credit note): free text, trimmed. */
export function ReasonInput(description: string): PropertyDecorator {
  // In the order stacked decorators apply: the last one written first.
  return applyDecorators(
    IsString(),
    MaxLength(1000),
    Trim(),
    IsOptional(),
    ApiPropertyOptional({ type: 'string', maxLength: 1000, description }),
  );
}

/** `POST /invoice/refund`. */
export class RefundDto {
  @IdInputProperty({ description: 'Id of the invoice' })
  @IsDefined({ message: 'id is required' })
  @IsIdInput('id must be a string of digits')
  id: string;

  /** Its minor digits are checked against the invoice's currency by the service. */
  @DecimalInputProperty({
    description:
      'Greater than 0, at most the invoice currency’s minor digits, not above the cash held (payments received less refunds)',
  })
  @IsDefined({ message: 'amount is required' })
  @IsDecimalInput({ min: '0', exclusiveMin: true, max: '10000000000000', maxPlaces: 4 })
  amount: Decimal;

  @DateInputProperty({ description: 'When the money was returned' })
  @IsDefined({ message: 'refund_date is required' })
  @IsDateInput()
  refund_date: string;

  @ListedValueInputProperty(PAYMENT_METHODS, {
    required: false,
    description: 'How the money was returned; default Others',
  })
  @IsOptional()
  @IsOneOf(PAYMENT_METHODS)
  payment_method?: PaymentMethod;

  @ReasonInput('Why the money was returned')
  reason?: string;
}
