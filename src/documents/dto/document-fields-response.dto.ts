import { ApiProperty } from '@nestjs/swagger';
import type { LosslessNumber } from 'lossless-json';
import {
  CurrencyProperty,
  DateProperty,
  DecimalNumberProperty,
  EnumProperty,
  IdProperty,
  NumericTextProperty,
  OptionalDateProperty,
  TextProperty,
  TimestampProperty,
} from '../../openapi/schema-property.decorator';
import { VAT_CATEGORIES, VatCategory } from '../domain/vat-categories';

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

/** One entry of the VAT breakdown (EN 16931 BG-23): one per tax group. */
export class TaxGroupDto {
  @TextProperty('The tax’s name (TAX_NAME unless the line named it)')
  name: string;

  @EnumProperty(VAT_CATEGORIES, 'UNCL 5305 VAT category')
  category: VatCategory;

  @DecimalNumberProperty('Percent')
  rate: LosslessNumber;

  @NumericTextProperty(
    'BT-116: the group’s line amounts less its share of the document discount; with prices_include_tax, round(gross × 100 / (100 + rate))',
  )
  taxable_amount: string;

  @NumericTextProperty(
    'BT-117: round(taxable_amount × rate / 100); with prices_include_tax, the group’s gross less taxable_amount',
  )
  tax_amount: string;

  @TextProperty('BT-120: why no tax is charged; may be empty')
  exemption_reason: string;

  @TextProperty('BT-121: VATEX code; may be empty')
  exemption_code: string;
}

/**
 * Beyond the specification (docs/rules.md, taxes): the document discount, whether prices
 * include tax, the date of supply or period. Wherever the document is answered.
 */
export class DocumentTaxTermsDto {
  @ApiProperty({
    type: 'number',
    nullable: true,
    description: 'The document discount in percent, or null when none was given as one',
  })
  discount_percent: LosslessNumber | null;

  @NumericTextProperty('BT-107: the document discount in money, "0.00" when none')
  discount_amount: string;

  @ApiProperty({ type: 'boolean', description: 'Whether rates and amounts include tax' })
  prices_include_tax: boolean;

  @OptionalDateProperty('BT-72: the date of supply, or empty')
  supply_date: string;

  @OptionalDateProperty('BT-73: the first day of the service period, or empty')
  period_start: string;

  @OptionalDateProperty('BT-74: the last day of the service period, or empty')
  period_end: string;
}

/** The VAT breakdown part of a document's read, add and update answers, beside its `items`. */
export function TaxBreakdownProperty(): PropertyDecorator {
  return ApiProperty({
    type: [TaxGroupDto],
    description:
      'Beyond the specification: the VAT breakdown, one entry per tax group (name, category, rate), in order of first appearance (docs/rules.md)',
  });
}
