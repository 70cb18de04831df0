import { Transform } from 'class-transformer';
import { IsOptional, IsString, Matches } from 'class-validator';
import { ListQueryDto } from '../../common/list-query.dto';

/** Filters invoices and estimates share. */
export class ListDocumentsDto extends ListQueryDto {
  /** Only this client's documents. */
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => (typeof value === 'number' ? String(value) : value))
  @Matches(/^\d{1,10}$/, { message: 'client must be the id of a client' })
  @IsString()
  client?: string;
}
