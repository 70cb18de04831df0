import { IsDefined, IsOptional } from 'class-validator';
import { Decimal } from '../../common/money/decimal';
import { IsDateInput, IsDecimalInput, IsIdInput, IsOneOf } from '../../common/input-rules';
import {
  DateInputProperty,
  DecimalInputProperty,
  IdInputProperty,
  ListedValueInputProperty,
} from '../../openapi/schema-property.decorator';
import { PAYMENT_METHODS, PaymentMethod } from '../../invoices/domain/payment-status';

export class RecordPaymentDto {
  @IdInputProperty({ description: 'Id of the invoice' })
  @IsDefined({ message: 'id is required' })
  @IsIdInput('id must be a string of digits')
  id: string;

  @DateInputProperty()
  @IsDefined({ message: 'payment_date is required' })
  @IsDateInput()
  payment_date: string;

  /** Its minor digits are checked against the invoice's currency by the service. */
  @DecimalInputProperty({
    description:
      'Greater than 0, at most the invoice currency’s minor digits, not above outstanding_balance',
  })
  @IsDefined({ message: 'amount_paid is required' })
  @IsDecimalInput({ min: '0', exclusiveMin: true, max: '10000000000000', maxPlaces: 4 })
  amount_paid: Decimal;

  @ListedValueInputProperty(PAYMENT_METHODS, {
    required: false,
    description: 'How the invoice was paid; default Others',
  })
  @IsOptional()
  @IsOneOf(PAYMENT_METHODS)
  payment_method?: PaymentMethod;
}
