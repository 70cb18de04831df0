import { applyDecorators } from '@nestjs/common';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsDefined,
  IsObject,
  IsString,
  Length,
  ValidateNested,
} from 'class-validator';
import { ApiProperty } from '@nestjs/swagger';
import { Decimal } from '../../common/money/decimal';
import { DecimalInputProperty } from '../../openapi/schema-property.decorator';
import { IsDecimalInput, Trim } from '../../common/input-rules';

/** One line of an invoice or an estimate. */
export class LineItemDto {
  @ApiProperty({ type: 'string', minLength: 1, maxLength: 1000, description: 'Trimmed' })
  @IsDefined({ message: 'description is required' })
  @Trim()
  @Length(1, 1000, { message: 'description must be 1 to 1000 characters' })
  @IsString()
  description: string;

  @DecimalInputProperty({
    description: 'Greater than 0 and below 10000000000000, at most 4 decimals',
  })
  @IsDefined({ message: 'quantity is required' })
  @IsDecimalInput({ min: '0', exclusiveMin: true, max: '10000000000000', maxPlaces: 4 })
  quantity: Decimal;

  @DecimalInputProperty({
    description: 'Unit price: at least 0 and below 10000000000000, at most 4 decimals',
  })
  @IsDefined({ message: 'rate is required' })
  @IsDecimalInput({ min: '0', max: '10000000000000', maxPlaces: 4 })
  rate: Decimal;
}

export const MAX_LINE_ITEMS = 500;

/** An `items` parameter: 1 to 500 valid line items, kept in input order. */
export function LineItems(): PropertyDecorator {
  return applyDecorators(
    IsArray({ message: 'items must be an array of line items' }),
    ArrayMinSize(1, { message: 'items must hold at least one line item' }),
    ArrayMaxSize(MAX_LINE_ITEMS, {
      message: `items must hold at most ${MAX_LINE_ITEMS} line items`,
    }),
    // ValidateNested walks into a nested array instead of refusing it.
    IsObject({ each: true, message: 'each line item must be an object' }),
    ValidateNested({ each: true }),
    Type(() => LineItemDto),
  );
}
