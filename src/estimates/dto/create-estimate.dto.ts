import { IsOptional } from 'class-validator';
import { IsTrueFalse } from '../../common/input-rules';
import { DocumentInputDto, DocumentNumberInput } from '../../documents/dto/document-input.dto';
import { TrueFalseInputProperty } from '../../openapi/schema-property.decorator';

export type AcceptedFlag = 'True' | 'False';

export class CreateEstimateDto extends DocumentInputDto {
  @DocumentNumberInput('estimate_no', 'live estimates')
  estimate_no?: string;

  @TrueFalseInputProperty({
    required: false,
    description: 'Whether the client accepted it; default False',
  })
  @IsOptional()
  @IsTrueFalse()
  accepted?: AcceptedFlag;
}
