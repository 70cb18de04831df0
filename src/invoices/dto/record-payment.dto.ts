import { Transform } from 'class-transformer';
import { IsDefined, IsOptional, IsString, Matches } from 'class-validator';
import { Decimal } from '../../common/money/decimal';
import { IsDateInput, IsDecimalInput, IsOneOf } from '../../common/input-rules';
import { PAYMENT_METHODS, PaymentMethod } from '../domain/payment-status';

export class RecordPaymentDto {
  @IsDefined({ message: 'id is required' })
  @Transform(({ value }: { value: unknown }) => (typeof value === 'number' ? String(value) : value))
  @IsString()
  @Matches(/^\d{1,10}$/, { message: 'id must be a string of digits' })
  id: string;

  @IsDefined({ message: 'payment_date is required' })
  @IsDateInput()
  payment_date: string;

  /** Its minor digits are checked against the invoice's currency by the service. */
  @IsDefined({ message: 'amount_paid is required' })
  @IsDecimalInput({ min: '0', exclusiveMin: true, max: '10000000000000', maxPlaces: 4 })
  amount_paid: Decimal;

  @IsOptional()
  @IsOneOf(PAYMENT_METHODS)
  payment_method?: PaymentMethod;
}
