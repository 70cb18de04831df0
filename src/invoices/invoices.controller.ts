import { Controller, Delete, Get, Param, Post, Put } from '@nestjs/common';
import { ParseIdPipe } from '../http/parse-id.pipe';
import { RequestInput } from '../http/request-input.decorator';
import { SendDocumentDto } from '../documents/dto/send-document.dto';
import { CreateInvoiceDto } from './dto/create-invoice.dto';
import { RecordPaymentDto } from './dto/record-payment.dto';
import { UpdateInvoiceDto } from './dto/update-invoice.dto';
import { InvoicesService } from './invoices.service';
import { ListInvoicesDto } from './dto/list-invoices.dto';

@Controller('invoice')
export class InvoicesController {
  constructor(private readonly invoices: InvoicesService) {}

  @Get('all')
  list(@RequestInput() query: ListInvoicesDto) {
    return this.invoices.list(query);
  }

  @Post('add')
  create(@RequestInput() input: CreateInvoiceDto) {
    return this.invoices.create(input);
  }

  @Post('send')
  send(@RequestInput() input: SendDocumentDto) {
    return this.invoices.send(input);
  }

  @Post('record-payment')
  recordPayment(@RequestInput() input: RecordPaymentDto) {
    return this.invoices.recordPayment(input);
  }

  @Get('paid/:id')
  markPaid(@Param('id', ParseIdPipe) id: number) {
    return this.invoices.setPaymentStatus(id, 'Paid');
  }

  @Get('not-paid/:id')
  markNotPaid(@Param('id', ParseIdPipe) id: number) {
    return this.invoices.setPaymentStatus(id, 'Not Paid');
  }

  @Get(':id')
  get(@Param('id', ParseIdPipe) id: number) {
    return this.invoices.get(id);
  }

  @Put(':id')
  update(@Param('id', ParseIdPipe) id: number, @RequestInput() input: UpdateInvoiceDto) {
    return this.invoices.update(id, input);
  }

  @Delete(':id')
  archive(@Param('id', ParseIdPipe) id: number) {
    return this.invoices.archive(id);
  }
}
