import { ApiProperty } from '@nestjs/swagger';
import type { LosslessNumber } from 'lossless-json';
import {
  CurrencyProperty,
  DateProperty,
  DecimalNumberProperty,
  IdProperty,
  TextProperty,
  TimestampProperty,
} from '../../openapi/schema-property.decorator';

/*
 * Output fields invoices and estimates share. Each resource's DTO combines them
 * (IntersectionType) with its own; documents.mapper.ts fills one piece per function.
 */

/** Copied from the client when the document is written. */
export class DocumentCustomerFieldsDto {
  @IdProperty('Id of the client the document belongs to (the input `client`)')
  customer_id: string;

  @TextProperty('Copied from the client')
  customer_name: string;

  @TextProperty('Copied from the client; may be empty')
  customer_phone: string;

  @TextProperty('Copied from the client; may be empty')
  customer_address: string;

  @TextProperty('Copied from the client (its tax_id); may be empty')
  customer_tax_id: string;

  @ApiProperty({
    type: 'string',
    pattern: '^([A-Z]{2})?$',
    description: 'Copied from the client (its country, ISO 3166-1 alpha-2); may be empty',
  })
  customer_country: string;
}

/** Money fields are exact decimals written as JSON numbers (LosslessNumber on the way out). */
export class DocumentPricingFieldsDto {
  @CurrencyProperty()
  currency: string;

  @DecimalNumberProperty('Tax rate in percent, 0 to 100')
  tax_rate: LosslessNumber;

  @DecimalNumberProperty(
    'sub_total × tax_rate / 100, rounded half away from zero to the minor units',
  )
  tax_amount: LosslessNumber;

  @DecimalNumberProperty('Sum of the line amounts, with the currency’s minor digits')
  sub_total: LosslessNumber;

  @DecimalNumberProperty('sub_total + tax_amount, with the currency’s minor digits')
  total: LosslessNumber;
}

export class DocumentDateFieldsDto {
  @DateProperty()
  issue_date: string;

  @DateProperty('Never before issue_date')
  due_date: string;

  @TextProperty('Footer note; may be empty')
  note: string;
}

export class TimestampFieldsDto {
  @TimestampProperty()
  created_at: string;

  @TimestampProperty('UTC, YYYY-MM-DD HH:MM:SS; changes on every write to the record')
  updated_at: string;
}
