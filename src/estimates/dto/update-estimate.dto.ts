import { ApiPropertyOptional, OmitType } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { LineItemDto, LineItems, MAX_LINE_ITEMS } from '../../documents/dto/line-item.dto';
import { CreateEstimateDto } from './create-estimate.dto';

/** The parameters of add; `items` may be left out, which keeps the estimate's lines. */
export class UpdateEstimateDto extends OmitType(CreateEstimateDto, ['items', 'draft'] as const) {
  @ApiPropertyOptional({
    type: [LineItemDto],
    minItems: 1,
    maxItems: MAX_LINE_ITEMS,
    description: 'Replace all lines, kept in this order; left out, the lines stay as they are',
  })
  @IsOptional()
  @LineItems()
  items?: LineItemDto[];
}
