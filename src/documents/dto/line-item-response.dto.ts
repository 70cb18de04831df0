import type { LosslessNumber } from 'lossless-json';
import { ApiProperty } from '@nestjs/swagger';
import {
  DecimalNumberProperty,
  EnumProperty,
  NumericTextProperty,
  TextProperty,
} from '../../openapi/schema-property.decorator';
import { VAT_CATEGORIES, VatCategory } from '../domain/vat-categories';

/** A tax a line carries. */
export class LineTaxOutputDto {
  @TextProperty('The tax’s name')
  name: string;

  @EnumProperty(VAT_CATEGORIES, 'UNCL 5305 VAT category')
  category: VatCategory;

  @DecimalNumberProperty('Percent')
  rate: LosslessNumber;
}

/** A line as add and update answer it: no amount. */
export class LineItemOutputDto {
  @TextProperty()
  description: string;

  @ApiProperty({
    type: 'number',
    minimum: 0,
    example: 2,
    description: 'Greater than 0, at most 4 decimals. An exact decimal written as a JSON number.',
  })
  quantity: LosslessNumber;

  @NumericTextProperty(
    'Unit price with at least the currency’s minor digits and at most 4 ("10.50", "0.125")',
  )
  rate: string;
}

/** A line as a read answers it, with its amount, unit, discount and taxes. */
export class LineItemWithAmountDto extends LineItemOutputDto {
  @NumericTextProperty(
    'quantity × rate, rounded half away from zero to the currency’s minor digits, less the line’s discount_amount',
  )
  amount: string;

  @TextProperty('Beyond the specification: UN/ECE Recommendation 20 unit code (C62 piece)')
  unit: string;

  @ApiProperty({
    type: 'number',
    nullable: true,
    description:
      'Beyond the specification: the line discount in percent, or null when none was given as one',
  })
  discount_percent: LosslessNumber | null;

  @NumericTextProperty(
    'Beyond the specification: the line discount in money (BT-136), "0.00" when none',
  )
  discount_amount: string;

  @ApiProperty({
    type: [LineTaxOutputDto],
    description:
      'Beyond the specification: the taxes the line carries (the document’s default tax when it named none)',
  })
  taxes: LineTaxOutputDto[];
}
