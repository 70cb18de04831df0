import { ApiProperty } from '@nestjs/swagger';
import { IsDefined, IsOptional, IsString, Length } from 'class-validator';
import { IsTrueFalse, Trim } from '../../common/input-rules';
import { DocumentInputDto } from '../../documents/dto/document-input.dto';
import { TrueFalseInputProperty } from '../../openapi/schema-property.decorator';

export type AcceptedFlag = 'True' | 'False';

export class CreateEstimateDto extends DocumentInputDto {
  @ApiProperty({
    type: 'string',
    minLength: 1,
    maxLength: 64,
    description: 'Trimmed; unique among live estimates (409)',
  })
  @IsDefined({ message: 'estimate_no is required' })
  @IsString()
  @Trim()
  @Length(1, 64, { message: 'estimate_no must be 1 to 64 characters' })
  estimate_no: string;

  @TrueFalseInputProperty({
    required: false,
    description: 'Whether the client accepted it; default False',
  })
  @IsOptional()
  @IsTrueFalse()
  accepted?: AcceptedFlag;
}
