import { OmitType } from '@nestjs/mapped-types';
import { IsOptional } from 'class-validator';
import { LineItemDto, LineItems } from '../../documents/dto/line-item.dto';
import { CreateInvoiceDto } from './create-invoice.dto';

/** The parameters of add; `items` may be left out, which keeps the invoice's lines. */
export class UpdateInvoiceDto extends OmitType(CreateInvoiceDto, ['items'] as const) {
  @IsOptional()
  @LineItems()
  items?: LineItemDto[];
}
