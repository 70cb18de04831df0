import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { IsOneOf } from '../../common/input-rules';
import { ListIssuedDocumentsDto } from '../../documents/dto/list-documents.dto';
import { INVOICE_STATUSES, InvoiceStatus } from '../domain/invoice-status';
import { PAYMENT_STATUSES, PaymentStatus } from '../domain/payment-status';

export class ListInvoicesDto extends ListIssuedDocumentsDto {
  @ApiPropertyOptional({
    type: 'string',
    enum: [...PAYMENT_STATUSES],
    description: 'Only invoices with this status (any case)',
  })
  @IsOptional()
  @IsOneOf(PAYMENT_STATUSES)
  payment_status?: PaymentStatus;

  @ApiPropertyOptional({
    type: 'string',
    enum: [...INVOICE_STATUSES],
    description:
      'Only invoices with this status (any case); overdue and open by today’s date (UTC)',
  })
  @IsOptional()
  @IsOneOf(INVOICE_STATUSES)
  status?: InvoiceStatus;
}
