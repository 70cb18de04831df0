import type { LosslessNumber } from 'lossless-json';
import { ApiProperty } from '@nestjs/swagger';
import { NumericTextProperty, TextProperty } from '../../openapi/schema-property.decorator';

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

/** A line as a read answers it, with its amount. */
export class LineItemWithAmountDto extends LineItemOutputDto {
  @NumericTextProperty(
    'quantity × rate, rounded half away from zero to the currency’s minor digits',
  )
  amount: string;
}
