import { Transform } from 'class-transformer';
import { IsDefined, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { Decimal } from '../../common/money/decimal';
import { IsCurrencyInput, IsDateInput, IsDecimalInput, Trim } from '../../common/input-rules';
import { LineItemDto, LineItems } from './line-item.dto';

/** The parameters invoices and estimates share (CONTRACT.md: same money, items, client rules). */
export class DocumentInputDto {
  @IsDefined({ message: 'client is required' })
  @Transform(({ value }: { value: unknown }) => (typeof value === 'number' ? String(value) : value))
  @Matches(/^\d{1,10}$/, { message: 'client must be the id of a client' })
  @IsString()
  client: string;

  @IsOptional()
  @Trim()
  @MaxLength(1000)
  @IsString()
  description?: string;

  @IsOptional()
  @IsCurrencyInput()
  currency?: string;

  @IsOptional()
  @IsDecimalInput({ min: '0', max: '100', inclusiveMax: true, maxPlaces: 4 })
  tax_rate?: Decimal;

  @IsOptional()
  @IsDateInput()
  issue_date?: string;

  @IsOptional()
  @IsDateInput()
  due_date?: string;

  @IsOptional()
  @MaxLength(10_000)
  @IsString()
  note?: string;

  @IsDefined({ message: 'items is required' })
  @LineItems()
  items: LineItemDto[];
}
