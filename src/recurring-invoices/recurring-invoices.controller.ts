import { Controller, Delete, Get, Param, Post, Put } from '@nestjs/common';
import { ListQueryDto } from '../common/list-query.dto';
import { ListAnswer } from '../database/find-list';
import { ParseIdPipe } from '../http/parse-id.pipe';
import { RequestInput } from '../http/request-input.decorator';
import { Idempotent } from '../idempotency/idempotent.decorator';
import { ApiEndpoint, ApiResource } from '../openapi/api-endpoint.decorator';
import { DeletedResponseDto } from '../openapi/dto/deleted-response.dto';
import {
  CreateRecurringInvoiceDto,
  UpdateRecurringInvoiceDto,
} from './dto/recurring-invoice-input.dto';
import {
  RecurringInvoiceListResponseDto,
  RecurringInvoiceResponseDto,
} from './dto/recurring-invoice-response.dto';
import { RecurringInvoicesService } from './recurring-invoices.service';

const NOT_FOUND = 'No live recurring invoice with this id';
const INVALID =
  'A missing or malformed parameter, an unknown or archived client, an end_date before start_date';

@ApiResource('recurring invoices')
@Controller('recurring-invoice')
export class RecurringInvoicesController {
  constructor(private readonly schedules: RecurringInvoicesService) {}

  @Get('all')
  @ApiEndpoint({
    summary: 'List recurring invoices',
    description:
      'Beyond the specification: live schedules, oldest first, each with its next_date and the invoices it made.',
    query: ListQueryDto,
    success: RecurringInvoiceListResponseDto,
    errors: { 422: 'A malformed page' },
  })
  list(@RequestInput() query: ListQueryDto): Promise<ListAnswer<RecurringInvoiceListResponseDto>> {
    return this.schedules.list(query);
  }

  @Post('add')
  @Idempotent()
  @ApiEndpoint({
    summary: 'Add a recurring invoice',
    description:
      'Beyond the specification: a schedule that makes one invoice per period, on the period’s date, with its number from the invoice series, the lines, taxes and discounts given, and recurring_invoice_id; sent through the outbox with auto_send, or made as drafts. Periods missed while no instance ran are each made with their own dates.',
    body: CreateRecurringInvoiceDto,
    success: RecurringInvoiceResponseDto,
    errors: { 422: INVALID },
  })
  create(@RequestInput() input: CreateRecurringInvoiceDto): Promise<RecurringInvoiceResponseDto> {
    return this.schedules.create(input);
  }

  @Get(':id')
  @ApiEndpoint({
    summary: 'Read a recurring invoice',
    description: 'Beyond the specification: the schedule, its next_date and the invoices it made.',
    pathId: 'Id of the recurring invoice',
    success: RecurringInvoiceResponseDto,
    errors: { 404: NOT_FOUND },
  })
  get(@Param('id', ParseIdPipe) id: number): Promise<RecurringInvoiceResponseDto> {
    return this.schedules.get(id);
  }

  @Put(':id')
  @Idempotent()
  @ApiEndpoint({
    summary: 'Update a recurring invoice',
    description:
      'Beyond the specification: takes the parameters of add, each optional (one left out keeps its value). Applies from the next period: invoices already made stay as they are; a new start date, interval or end moves the next period to the first of the new dates on or after the period that was next.',
    pathId: 'Id of the recurring invoice',
    body: UpdateRecurringInvoiceDto,
    success: RecurringInvoiceResponseDto,
    errors: { 404: NOT_FOUND, 422: INVALID },
  })
  update(
    @Param('id', ParseIdPipe) id: number,
    @RequestInput() input: UpdateRecurringInvoiceDto,
  ): Promise<RecurringInvoiceResponseDto> {
    return this.schedules.update(id, input);
  }

  @Post(':id/pause')
  @Idempotent()
  @ApiEndpoint({
    summary: 'Pause a recurring invoice',
    description:
      'Beyond the specification: from today no period is billed until it is resumed; the periods that fall meanwhile are skipped, not billed on resume.',
    pathId: 'Id of the recurring invoice',
    success: RecurringInvoiceResponseDto,
    errors: { 404: NOT_FOUND, 409: 'The recurring invoice is not active' },
  })
  pause(@Param('id', ParseIdPipe) id: number): Promise<RecurringInvoiceResponseDto> {
    return this.schedules.pause(id);
  }

  @Post(':id/resume')
  @Idempotent()
  @ApiEndpoint({
    summary: 'Resume a recurring invoice',
    description:
      'Beyond the specification: periods dated from today on are billed again; those that fell while it was paused stay unbilled.',
    pathId: 'Id of the recurring invoice',
    success: RecurringInvoiceResponseDto,
    errors: { 404: NOT_FOUND, 409: 'The recurring invoice is not paused' },
  })
  resume(@Param('id', ParseIdPipe) id: number): Promise<RecurringInvoiceResponseDto> {
    return this.schedules.resume(id);
  }

  @Delete(':id')
  @ApiEndpoint({
    summary: 'End (delete) a recurring invoice',
    description:
      'Beyond the specification: the schedule ends and is archived (404 from then on); the invoices it made stay.',
    pathId: 'Id of the recurring invoice',
    success: DeletedResponseDto,
    errors: { 404: NOT_FOUND },
  })
  archive(@Param('id', ParseIdPipe) id: number): Promise<DeletedResponseDto> {
    return this.schedules.archive(id);
  }
}
