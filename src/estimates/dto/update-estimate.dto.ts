import { OmitType } from '@nestjs/mapped-types';
import { IsOptional } from 'class-validator';
import { LineItemDto, LineItems } from '../../documents/dto/line-item.dto';
import { CreateEstimateDto } from './create-estimate.dto';

/** The parameters of add; `items` may be left out, which keeps the estimate's lines. */
export class UpdateEstimateDto extends OmitType(CreateEstimateDto, ['items'] as const) {
  @IsOptional()
  @LineItems()
  items?: LineItemDto[];
}
