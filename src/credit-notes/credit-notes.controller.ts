import { Controller, Get, Param, Post, StreamableFile } from '@nestjs/common';
import { ListAnswer } from '../database/find-list';
import { SendDocumentDto } from '../documents/dto/send-document.dto';
import { PDF_MEDIA_TYPE } from '../documents/pdf/document-pdf.renderer';
import { XML_MEDIA_TYPE } from '../document-operations/document-operations';
import { EINVOICE_INCOMPLETE, EinvoiceQueryDto } from '../documents/dto/einvoice-query.dto';
import { MessageResponseDto } from '../openapi/dto/message-response.dto';
import { ParseIdPipe } from '../http/parse-id.pipe';
import { RequestInput } from '../http/request-input.decorator';
import { ApiEndpoint, ApiResource } from '../openapi/api-endpoint.decorator';
import { CreditNotesService } from './credit-notes.service';
import { CreateCreditNoteDto } from './dto/create-credit-note.dto';
import {
  CreditNoteListResponseDto,
  CreditNoteReadResponseDto,
  CreditNoteWriteResponseDto,
} from './dto/credit-note-response.dto';
import { ListCreditNotesDto } from './dto/list-credit-notes.dto';
import { Idempotent } from '../idempotency/idempotent.decorator';

const NOT_FOUND = 'No credit note with this id';

@ApiResource('credit notes')
@Controller('credit-note')
export class CreditNotesController {
  constructor(private readonly creditNotes: CreditNotesService) {}

  @Get('all')
  @ApiEndpoint({
    summary: 'List credit notes',
    description: 'Beyond the specification: credit notes, oldest first.',
    query: ListCreditNotesDto,
    success: CreditNoteListResponseDto,
    errors: { 422: 'A malformed filter or page' },
  })
  list(@RequestInput() query: ListCreditNotesDto): Promise<ListAnswer<CreditNoteListResponseDto>> {
    return this.creditNotes.list(query);
  }

  @Post('add')
  @Idempotent()
  @ApiEndpoint({
    summary: 'Issue a credit note',
    description:
      'Beyond the specification: a credit note for a live invoice, at its currency and tax rate, appends a Credited entry for its total to the invoice’s ledger (with refund: true, a Refunded entry first for the part above the outstanding balance); payment_status becomes Paid when nothing is outstanding. A credit note is never changed or deleted.',
    body: CreateCreditNoteDto,
    success: CreditNoteWriteResponseDto,
    errors: {
      409: 'credit_note_no is already used, or the invoice is void',
      422: 'A missing or malformed parameter, an unknown or archived invoice, an issue_date before the invoice’s, a total of 0, above the invoice’s total less its earlier credit notes, or (without refund) above its outstanding balance',
    },
  })
  create(@RequestInput() input: CreateCreditNoteDto): Promise<CreditNoteWriteResponseDto> {
    return this.creditNotes.create(input);
  }

  @Post('send')
  @Idempotent()
  @ApiEndpoint({
    summary: 'Send a credit note',
    description: 'Beyond the specification: appends a send_log entry and e-mails the PDF.',
    body: SendDocumentDto,
    success: MessageResponseDto,
    errors: { 404: NOT_FOUND, 422: 'A missing or malformed id or e-mail address' },
  })
  send(@RequestInput() input: SendDocumentDto): Promise<MessageResponseDto> {
    return this.creditNotes.send(input);
  }

  @Get(':id/einvoice')
  @ApiEndpoint({
    summary: 'A credit note as an e-invoice',
    description:
      "Beyond the specification: the credit note as a structured EN 16931 e-invoice (type 381) in the format asked for, from the same figures as its answer and its PDF, with the issuer from the COMPANY_* settings and the client's `einvoice_address`. What the format needs and the credit note, its client or the settings lack answers 422 naming each piece.",
    pathId: 'Id of the credit note',
    query: EinvoiceQueryDto,
    success: {
      mediaType: [XML_MEDIA_TYPE, PDF_MEDIA_TYPE],
      description: 'The e-invoice: XML, or for facturx the PDF carrying it',
      filename: '<credit_note_no>.xml, or <credit_note_no>.pdf for facturx',
    },
    errors: { 404: NOT_FOUND, 422: EINVOICE_INCOMPLETE },
  })
  einvoice(
    @Param('id', ParseIdPipe) id: number,
    @RequestInput() query: EinvoiceQueryDto,
  ): Promise<StreamableFile> {
    return this.creditNotes.einvoice(id, query.format);
  }

  @Get(':id/pdf')
  @ApiEndpoint({
    summary: 'A credit note as a PDF',
    description:
      'Beyond the specification: the credit note printed on A4, titled Credit note, naming the invoice it corrects.',
    pathId: 'Id of the credit note',
    success: {
      mediaType: PDF_MEDIA_TYPE,
      description: 'The credit note as a PDF',
      filename: '<credit_note_no>.pdf',
    },
    errors: { 404: NOT_FOUND },
  })
  pdf(@Param('id', ParseIdPipe) id: number): Promise<StreamableFile> {
    return this.creditNotes.pdf(id);
  }

  @Get(':id')
  @ApiEndpoint({
    summary: 'Read a credit note',
    description: 'Beyond the specification: the credit note, its lines with amounts, its sends.',
    pathId: 'Id of the credit note',
    success: CreditNoteReadResponseDto,
    errors: { 404: NOT_FOUND },
  })
  get(@Param('id', ParseIdPipe) id: number): Promise<CreditNoteReadResponseDto> {
    return this.creditNotes.get(id);
  }
}
