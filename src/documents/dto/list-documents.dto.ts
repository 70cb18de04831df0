import { IsOptional } from 'class-validator';
import { IsIdInput, parseId } from '../../common/input-rules';
import { ListQueryDto } from '../../common/list-query.dto';
import { IdInputProperty } from '../../openapi/schema-property.decorator';

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

/** An id filter (`client`, `invoice`) as a column value; digits that name no record match nothing (no id is 0). */
export function idFilter(id: string | undefined): number | undefined {
  return id === undefined ? undefined : (parseId(id) ?? 0);
}
