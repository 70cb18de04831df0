import { PickType } from '@nestjs/swagger';
import { CreateInvoiceDto } from '../../invoices/dto/create-invoice.dto';

/**
 * `POST /estimate/{id}/convert`: the new invoice's number, with the rules of add, and
 * optionally its dates (issue_date defaults to today: the invoice is issued now, whatever the
 * estimate's dates were).
 */
export class ConvertEstimateDto extends PickType(CreateInvoiceDto, [
  'invoice_no',
  'issue_date',
  'due_date',
] as const) {}
