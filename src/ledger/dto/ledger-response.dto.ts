import { ApiProperty } from '@nestjs/swagger';
import { MessageResponseDto } from '../../openapi/dto/message-response.dto';
import { InvoiceWithTimestampsDto, PaymentEntryDto } from '../../invoices/dto/invoice-response.dto';

/** `POST /invoice/{id}/void`. */
export class InvoiceChangeResponseDto extends MessageResponseDto {
  @ApiProperty({ type: [InvoiceWithTimestampsDto], description: 'The invoice after the change' })
  invoice: InvoiceWithTimestampsDto[];
}

/** `POST /invoice/refund`. */
export class RefundResponseDto extends InvoiceChangeResponseDto {
  @ApiProperty({ type: PaymentEntryDto, description: 'The Refunded entry of the ledger' })
  entry: PaymentEntryDto;
}
