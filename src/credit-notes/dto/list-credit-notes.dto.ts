import { IsOptional } from 'class-validator';
import { IsDateInput, IsIdInput } from '../../common/input-rules';
import { ListQueryDto } from '../../common/list-query.dto';
import { DateInputProperty, IdInputProperty } from '../../openapi/schema-property.decorator';

export class ListCreditNotesDto extends ListQueryDto {
  @IdInputProperty({
    required: false,
    description: "Only this invoice's credit notes (an id naming no invoice: an empty list)",
  })
  @IsOptional()
  @IsIdInput('invoice must be the id of an invoice')
  invoice?: string;

  @IdInputProperty({
    required: false,
    description: "Only this client's credit notes (an id naming no client: an empty list)",
  })
  @IsOptional()
  @IsIdInput('client must be the id of a client')
  client?: string;

  @DateInputProperty({ required: false, description: 'Earliest issue_date, inclusive' })
  @IsOptional()
  @IsDateInput()
  from?: string;

  @DateInputProperty({ required: false, description: 'Latest issue_date, inclusive' })
  @IsOptional()
  @IsDateInput()
  to?: string;
}
