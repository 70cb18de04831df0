import { IsOptional } from 'class-validator';
import { IsTrueFalse } from '../../common/input-rules';
import { ListDocumentsDto } from '../../documents/dto/list-documents.dto';
import { ListedValueInputProperty } from '../../openapi/schema-property.decorator';
import { AcceptedFlag } from './create-estimate.dto';

export class ListEstimatesDto extends ListDocumentsDto {
  @ListedValueInputProperty(['True', 'False'], {
    required: false,
    description: 'Only estimates with this accepted flag',
  })
  @IsOptional()
  @IsTrueFalse()
  accepted?: AcceptedFlag;
}
