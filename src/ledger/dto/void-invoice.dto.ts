import { ReasonInput } from './refund.dto';

/** `POST /invoice/{id}/void`. */
export class VoidInvoiceDto {
  @ReasonInput('Why the invoice is void')
  reason?: string;
}
