import { IsOptional } from 'class-validator';
import { IsDateInput, IsNotBefore, IsIdInput } from '../../common/input-rules';
import { ListQueryDto } from '../../common/list-query.dto';
import { DateInputProperty, IdInputProperty } from '../../openapi/schema-property.decorator';

/** Filters invoices and estimates share. */
export class ListDocumentsDto extends ListQueryDto {
  /** Only this client's documents. */
  @IdInputProperty({
    required: false,
    description: "Only this client's documents (an id naming no client: an empty list)",
  })
  @IsOptional()
  @IsIdInput('client must be the id of a client')
  client?: string;
}

/** Filters of the documents listed by issue date (invoices, credit notes). */
export class ListIssuedDocumentsDto extends ListDocumentsDto {
  /** Earliest `issue_date`, inclusive. */
  @DateInputProperty({ required: false, description: 'Earliest issue_date, inclusive' })
  @IsOptional()
  @IsDateInput()
  from?: string;

  /** Latest `issue_date`, inclusive. */
  @DateInputProperty({
    required: false,
    description: 'Latest issue_date, inclusive; not before `from`',
  })
  @IsOptional()
  @IsDateInput()
  @IsNotBefore('from')
  to?: string;
}
