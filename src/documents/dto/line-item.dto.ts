import { applyDecorators } from '@nestjs/common';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsDefined,
  IsObject,
  IsOptional,
  IsString,
  Length,
  ValidateNested,
} from 'class-validator';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Decimal } from '../../common/money/decimal';
import {
  DecimalInputProperty,
  ListedValueInputProperty,
} from '../../openapi/schema-property.decorator';
import { IsDecimalInput, IsListedCode, IsNotGivenWith, Trim } from '../../common/input-rules';
import { UNIT_CODES } from '../domain/unit-codes';
import { VAT_CATEGORIES, VATEX_CODES, VatCategory } from '../domain/vat-categories';

/** One tax of a line (docs/rules.md, taxes): its group is (name, category, rate). */
export class LineTaxDto {
  @DecimalInputProperty({ description: 'Percent, 0 to 100, at most 4 decimals' })
  @IsDefined({ message: 'rate is required' })
  @IsDecimalInput({ min: '0', max: '100', inclusiveMax: true, maxPlaces: 4 })
  rate: Decimal;

  @ListedValueInputProperty(VAT_CATEGORIES, {
    required: false,
    description:
      'UNCL 5305 VAT category: S standard (default when rate > 0), Z zero rated (default when rate is 0), E exempt, AE reverse charge, K intra-community supply, G export, O outside the scope of VAT, L Canary Islands, M Ceuta and Melilla. Every category but S, L and M takes rate 0; S takes a rate above 0',
  })
  @IsOptional()
  @IsListedCode(
    VAT_CATEGORIES,
    '$property must be a UNCL 5305 VAT category (S, Z, E, AE, K, G, O, L, M)',
  )
  category?: VatCategory;

  @ApiPropertyOptional({
    type: 'string',
    minLength: 1,
    maxLength: 64,
    description: 'Trimmed; default the TAX_NAME setting',
  })
  @IsOptional()
  @Trim()
  @Length(1, 64, { message: 'name must be 1 to 64 characters' })
  @IsString()
  name?: string;

  @ApiPropertyOptional({
    type: 'string',
    minLength: 1,
    maxLength: 500,
    description:
      'BT-120: why no tax is charged. E, AE, K, G and O need it or exemption_code (AE, K and G default to the standard wording in the document’s language)',
  })
  @IsOptional()
  @Trim()
  @Length(1, 500, { message: 'exemption_reason must be 1 to 500 characters' })
  @IsString()
  exemption_reason?: string;

  @ListedValueInputProperty(VATEX_CODES, {
    required: false,
    description: 'BT-121: a VATEX exemption code',
    named: 'A code of the VATEX list (VATEX-EU-AE, VATEX-EU-IC, VATEX-EU-G, VATEX-EU-132-1A, …)',
  })
  @IsOptional()
  @IsListedCode(VATEX_CODES, '$property must be a VATEX exemption code (VATEX-EU-…)')
  exemption_code?: string;
}

export const MAX_LINE_TAXES = 3;

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

  @ListedValueInputProperty([...UNIT_CODES.keys()], {
    required: false,
    description: 'The unit of quantity (BT-130); default C62',
    named:
      'A UN/ECE Recommendation 20 code of the accepted list (C62 piece, HUR hour, DAY, KGM, MTR, …)',
  })
  @IsOptional()
  @IsListedCode(
    UNIT_CODES.keys(),
    '$property must be a UN/ECE Recommendation 20 unit code (C62, HUR, DAY, KGM, …)',
  )
  unit?: string;

  @DecimalInputProperty({
    required: false,
    description: 'Percent off quantity × rate: above 0, at most 100, at most 4 decimals',
  })
  @IsOptional()
  @IsDecimalInput({ min: '0', exclusiveMin: true, max: '100', inclusiveMax: true, maxPlaces: 4 })
  discount_percent?: Decimal;

  @DecimalInputProperty({
    required: false,
    description:
      'Money off: above 0, at most quantity × rate, with at most the currency’s minor digits; not with discount_percent',
  })
  @IsOptional()
  @IsDecimalInput({ min: '0', exclusiveMin: true, max: '10000000000000', maxPlaces: 4 })
  @IsNotGivenWith('discount_percent')
  discount_amount?: Decimal;

  @ApiPropertyOptional({
    type: [LineTaxDto],
    maxItems: MAX_LINE_TAXES,
    description:
      'Up to 3 taxes (GST and PST on one line); left out or empty, the document’s tax_rate. With prices_include_tax at most one',
  })
  @IsOptional()
  @IsArray({ message: 'taxes must be an array of taxes' })
  @ArrayMaxSize(MAX_LINE_TAXES, { message: `taxes must hold at most ${MAX_LINE_TAXES} taxes` })
  @IsObject({ each: true, message: 'each tax must be an object' })
  @ValidateNested({ each: true })
  @Type(() => LineTaxDto)
  taxes?: LineTaxDto[] | null;
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
