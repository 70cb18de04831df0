import { IdProperty } from '../schema-property.decorator';

/** Client, estimate and expense delete: the archived record's id. */
export class DeletedResponseDto {
  @IdProperty('Id of the archived record')
  id: string;
}
