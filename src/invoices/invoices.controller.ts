import { Controller, Delete, Get, Param, Post, Put, StreamableFile } from '@nestjs/common';
import { MessageResponseDto } from '../openapi/dto/message-response.dto';
import { ParseIdPipe } from '../http/parse-id.pipe';
import { RequestInput } from '../http/request-input.decorator';
import { ListAnswer } from '../database/find-list';
import { SendDocumentDto } from '../documents/dto/send-document.dto';
import { PDF_MEDIA_TYPE } from '../documents/pdf/document-pdf.renderer';
import { XML_MEDIA_TYPE } from '../document-operations/document-operations';
import { EINVOICE_INCOMPLETE, EinvoiceQueryDto } from '../documents/dto/einvoice-query.dto';
import { ApiEndpoint, ApiResource } from '../openapi/api-endpoint.decorator';
import { CreateInvoiceDto } from './dto/create-invoice.dto';
import {
  InvoiceListResponseDto,
  InvoiceReadResponseDto,
  InvoiceWriteResponseDto,
} from './dto/invoice-response.dto';
import { UpdateInvoiceDto } from './dto/update-invoice.dto';
import { InvoicesService } from './invoices.service';
import { ListInvoicesDto } from './dto/list-invoices.dto';
import { Idempotent } from '../idempotency/idempotent.decorator';
import { IssueDocumentDto } from '../documents/dto/document-input.dto';

const NOT_FOUND = 'No live invoice with this id';
const INVALID = 'A missing or malformed parameter, an unknown or archived client, due before issue';

@ApiResource('invoices')
@Controller('invoice')
export class InvoicesController {
  constructor(private readonly invoices: InvoicesService) {}

  @Get('all')
  @ApiEndpoint({
    summary: 'List invoices',
    description: 'Live invoices, oldest first, with timestamps.',
    query: ListInvoicesDto,
    success: InvoiceListResponseDto,
    errors: { 422: 'A malformed filter or page' },
  })
  list(@RequestInput() query: ListInvoicesDto): Promise<ListAnswer<InvoiceListResponseDto>> {
    return this.invoices.list(query);
  }

  @Post('add')
  @Idempotent()
  @ApiEndpoint({
    summary: 'Add an invoice',
    description: 'Answers the invoice with timestamps and the lines without amounts.',
    body: CreateInvoiceDto,
    success: InvoiceWriteResponseDto,
    errors: { 409: 'invoice_no is already used by a live invoice', 422: INVALID },
  })
  create(@RequestInput() input: CreateInvoiceDto): Promise<InvoiceWriteResponseDto> {
    return this.invoices.create(input);
  }

  @Post('send')
  @Idempotent()
  @ApiEndpoint({
    summary: 'Send an invoice',
    description: 'Appends a send_log entry; payment_status is unchanged.',
    body: SendDocumentDto,
    success: MessageResponseDto,
    errors: {
      404: NOT_FOUND,
      409: 'The invoice is void, or a draft',
      422: 'A missing or malformed id or e-mail address',
    },
  })
  send(@RequestInput() input: SendDocumentDto): Promise<MessageResponseDto> {
    return this.invoices.send(input);
  }

  @Post(':id/issue')
  @Idempotent()
  @ApiEndpoint({
    summary: 'Issue a draft invoice',
    description:
      'Beyond the specification: the draft takes the next number of the invoice series and its issue date, and becomes an ordinary invoice (reports, payments, sends). The due date keeps the draft’s term. Answers the invoice as read.',
    pathId: 'Id of the invoice',
    body: IssueDocumentDto,
    success: InvoiceReadResponseDto,
    errors: { 404: NOT_FOUND, 409: 'The invoice is not a draft', 422: 'A malformed issue_date' },
  })
  issue(
    @Param('id', ParseIdPipe) id: number,
    @RequestInput() input: IssueDocumentDto,
  ): Promise<InvoiceReadResponseDto> {
    return this.invoices.issue(id, input);
  }

  @Get(':id/einvoice')
  @ApiEndpoint({
    summary: 'An invoice as an e-invoice',
    description:
      "Beyond the specification: the invoice as a structured EN 16931 e-invoice (type 380) in the format asked for, from the same figures as its answer and its PDF, with the issuer from the COMPANY_* settings and the client's `einvoice_address`; a draft has none until it is issued (409). What the format needs and the invoice, its client or the settings lack answers 422 naming each piece.",
    pathId: 'Id of the invoice',
    query: EinvoiceQueryDto,
    success: {
      mediaType: [XML_MEDIA_TYPE, PDF_MEDIA_TYPE],
      description: 'The e-invoice: XML, or for facturx the PDF carrying it',
      filename: '<invoice_no>.xml, or <invoice_no>.pdf for facturx',
    },
    errors: { 404: NOT_FOUND, 409: 'The invoice is a draft', 422: EINVOICE_INCOMPLETE },
  })
  einvoice(
    @Param('id', ParseIdPipe) id: number,
    @RequestInput() query: EinvoiceQueryDto,
  ): Promise<StreamableFile> {
    return this.invoices.einvoice(id, query.format);
  }

  @Get(':id/pdf')
  @ApiEndpoint({
    summary: 'An invoice as a PDF',
    description:
      'Beyond the specification: the invoice printed on A4, with the issuer from the COMPANY_* settings, the client, the lines, the totals, the amount paid and the balance due.',
    pathId: 'Id of the invoice',
    success: {
      mediaType: PDF_MEDIA_TYPE,
      description: 'The invoice as a PDF',
      filename: '<invoice_no>.pdf',
    },
    errors: { 404: NOT_FOUND },
  })
  pdf(@Param('id', ParseIdPipe) id: number): Promise<StreamableFile> {
    return this.invoices.pdf(id);
  }

  @Get(':id')
  @ApiEndpoint({
    summary: 'Read an invoice',
    description: 'The invoice without timestamps; lines with amounts, payments and the send log.',
    pathId: 'Id of the invoice',
    success: InvoiceReadResponseDto,
    errors: { 404: NOT_FOUND },
  })
  get(@Param('id', ParseIdPipe) id: number): Promise<InvoiceReadResponseDto> {
    return this.invoices.get(id);
  }

  @Put(':id')
  @Idempotent()
  @ApiEndpoint({
    summary: 'Update an invoice',
    description:
      'Takes the parameters of add; items left out keep the lines, an optional field left out keeps its value.',
    pathId: 'Id of the invoice',
    body: UpdateInvoiceDto,
    success: InvoiceWriteResponseDto,
    errors: {
      404: NOT_FOUND,
      409: 'invoice_no is already used by another live invoice, the invoice is void, or its number came from the series and invoice_no is another',
      422: `${INVALID}, a total below the amount paid, a currency change after payments`,
    },
  })
  update(
    @Param('id', ParseIdPipe) id: number,
    @RequestInput() input: UpdateInvoiceDto,
  ): Promise<InvoiceWriteResponseDto> {
    return this.invoices.update(id, input);
  }

  @Delete(':id')
  @ApiEndpoint({
    summary: 'Delete (archive) an invoice',
    description:
      'The invoice leaves every list and the reports, and answers 404 from then on; its lines, ledger and sends stay. An invoice whose number came from the number series is voided instead, never deleted.',
    pathId: 'Id of the invoice',
    success: MessageResponseDto,
    errors: { 404: NOT_FOUND, 409: 'The invoice took its number from the number series' },
  })
  archive(@Param('id', ParseIdPipe) id: number): Promise<MessageResponseDto> {
    return this.invoices.archive(id);
  }
}
