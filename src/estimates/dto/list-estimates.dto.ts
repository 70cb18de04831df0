import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { IsTrueFalse } from '../../common/input-rules';
import { ListDocumentsDto } from '../../documents/dto/list-documents.dto';
import { AcceptedFlag } from './create-estimate.dto';

export class ListEstimatesDto extends ListDocumentsDto {
  @ApiPropertyOptional({
    type: 'string',
    enum: ['True', 'False'],
    description: 'Only estimates with this flag (True or False, any case)',
  })
  @IsOptional()
  @IsTrueFalse()
  accepted?: AcceptedFlag;
}
