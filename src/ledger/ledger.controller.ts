import { Controller, Get, Param, Post } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { ChangesState } from '../http/auth/changes-state.decorator';
import { MessageResponseDto } from '../openapi/dto/message-response.dto';
import { ParseIdPipe } from '../http/parse-id.pipe';
import { RequestInput } from '../http/request-input.decorator';
import { Idempotent } from '../idempotency/idempotent.decorator';
import { ApiEndpoint, ApiResource } from '../openapi/api-endpoint.decorator';
import { InvoiceChangeResponseDto, RefundResponseDto } from './dto/ledger-response.dto';
import { RecordPaymentDto } from './dto/record-payment.dto';
import { RefundDto } from './dto/refund.dto';
import { VoidInvoiceDto } from './dto/void-invoice.dto';
import { LedgerService } from './ledger.service';

const NOT_FOUND = 'No live invoice with this id';
const VOID = 'The invoice is void';

/**
 * The operation id the route had when InvoicesController held it: generated clients name
 * their methods after operation ids, so moving the route to the ledger renames none. (Under
 * ApiEndpoint, which adds the summary and description to it.)
 */
function KeptOperationId(method: string): MethodDecorator {
  return ApiOperation({ operationId: `InvoicesController_${method}` });
}

/**
 * The invoice's money moves, under `/invoice` like the rest of the invoice. LedgerModule is
 * registered before InvoicesModule, so `paid/:id` and `not-paid/:id` are matched before
 * InvoicesController's `:id/pdf`, as when one controller held them all.
 */
@ApiResource('invoices')
@Controller('invoice')
export class LedgerController {
  constructor(private readonly ledger: LedgerService) {}

  @Post('record-payment')
  @Idempotent()
  @ApiEndpoint({
    summary: 'Record a payment',
    description:
      'Appends a payment entry; payment_status becomes Paid when the outstanding balance reaches 0.',
    body: RecordPaymentDto,
    success: MessageResponseDto,
    errors: {
      404: NOT_FOUND,
      409: VOID,
      422: 'A missing or malformed parameter, more decimals than the currency has, more than the outstanding balance',
    },
  })
  @KeptOperationId('recordPayment')
  recordPayment(@RequestInput() input: RecordPaymentDto): Promise<MessageResponseDto> {
    return this.ledger.recordPayment(input);
  }

  @Post('refund')
  @Idempotent()
  @ApiEndpoint({
    summary: 'Refund money received',
    description:
      'Beyond the specification: appends a Refunded entry to the ledger (amount_paid falls by the amount); payment_status becomes Not Paid when a balance is then outstanding. At most the cash held: payments received less earlier refunds.',
    body: RefundDto,
    success: RefundResponseDto,
    errors: {
      404: NOT_FOUND,
      409: VOID,
      422: 'A missing or malformed parameter, more decimals than the currency has, more than the cash held',
    },
  })
  @KeptOperationId('refund')
  refund(@RequestInput() input: RefundDto): Promise<RefundResponseDto> {
    return this.ledger.refund(input);
  }

  @Get('paid/:id')
  @ChangesState()
  @ApiEndpoint({
    summary: 'Mark an invoice paid',
    description: 'Sets payment_status only; no payment is added.',
    pathId: 'Id of the invoice',
    success: MessageResponseDto,
    errors: { 404: NOT_FOUND, 409: VOID },
  })
  @KeptOperationId('markPaid')
  markPaid(@Param('id', ParseIdPipe) id: number): Promise<MessageResponseDto> {
    return this.ledger.setPaymentStatus(id, 'Paid');
  }

  @Get('not-paid/:id')
  @ChangesState()
  @ApiEndpoint({
    summary: 'Mark an invoice not paid',
    description: 'Sets payment_status only; no payment is removed.',
    pathId: 'Id of the invoice',
    success: MessageResponseDto,
    errors: { 404: NOT_FOUND, 409: VOID },
  })
  @KeptOperationId('markNotPaid')
  markNotPaid(@Param('id', ParseIdPipe) id: number): Promise<MessageResponseDto> {
    return this.ledger.setPaymentStatus(id, 'Not Paid');
  }

  @Post(':id/void')
  @Idempotent()
  @ApiEndpoint({
    summary: 'Void an invoice',
    description:
      'Beyond the specification: only while no cash is held (refund it first). The invoice keeps its number, stays readable and listed with status void; every later change but delete answers 409.',
    pathId: 'Id of the invoice',
    body: VoidInvoiceDto,
    success: InvoiceChangeResponseDto,
    errors: {
      404: NOT_FOUND,
      409: 'The invoice is already void, or holds cash received: refund it first',
      422: 'A malformed reason',
    },
  })
  @KeptOperationId('void')
  void(
    @Param('id', ParseIdPipe) id: number,
    @RequestInput() input: VoidInvoiceDto,
  ): Promise<InvoiceChangeResponseDto> {
    return this.ledger.void(id, input);
  }
}
