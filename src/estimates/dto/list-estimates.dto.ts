import { IsOptional } from 'class-validator';
import { IsTrueFalse } from '../../common/input-rules';
import { ListDocumentsDto } from '../../documents/dto/list-documents.dto';
import { AcceptedFlag } from './create-estimate.dto';

export class ListEstimatesDto extends ListDocumentsDto {
  @IsOptional()
  @IsTrueFalse()
  accepted?: AcceptedFlag;
}
