import { IsDefined, IsOptional, IsString, Length } from 'class-validator';
import { IsTrueFalse, Trim } from '../../common/input-rules';
import { DocumentInputDto } from '../../documents/dto/document-input.dto';

export type AcceptedFlag = 'True' | 'False';

export class CreateEstimateDto extends DocumentInputDto {
  @IsDefined({ message: 'estimate_no is required' })
  @IsString()
  @Trim()
  @Length(1, 64, { message: 'estimate_no must be 1 to 64 characters' })
  estimate_no: string;

  @IsOptional()
  @IsTrueFalse()
  accepted?: AcceptedFlag;
}
