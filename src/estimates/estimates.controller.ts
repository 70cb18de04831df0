import { Controller, Delete, Get, Param, Post, Put, StreamableFile } from '@nestjs/common';
import { SendDocumentDto } from '../documents/dto/send-document.dto';
import { PDF_MEDIA_TYPE } from '../documents/pdf/document-pdf.renderer';
import { DeletedResponseDto } from '../openapi/dto/deleted-response.dto';
import { MessageResponseDto } from '../openapi/dto/message-response.dto';
import { ParseIdPipe } from '../http/parse-id.pipe';
import { RequestInput } from '../http/request-input.decorator';
import { ListAnswer } from '../database/find-list';
import { InvoiceWriteResponseDto } from '../invoices/dto/invoice-response.dto';
import { ApiEndpoint, ApiResource } from '../openapi/api-endpoint.decorator';
import { ConvertEstimateDto } from './dto/convert-estimate.dto';
import { CreateEstimateDto } from './dto/create-estimate.dto';
import {
  EstimateListResponseDto,
  EstimateReadResponseDto,
  EstimateWriteResponseDto,
} from './dto/estimate-response.dto';
import { ListEstimatesDto } from './dto/list-estimates.dto';
import { UpdateEstimateDto } from './dto/update-estimate.dto';
import { EstimatesService } from './estimates.service';
import { Idempotent } from '../idempotency/idempotent.decorator';
import { IssueDocumentDto } from '../documents/dto/document-input.dto';

const NOT_FOUND = 'No live estimate with this id';
const INVALID = 'A missing or malformed parameter, an unknown or archived client, due before issue';

@ApiResource('estimates')
@Controller('estimate')
export class EstimatesController {
  constructor(private readonly estimates: EstimatesService) {}

  @Get('all')
  @ApiEndpoint({
    summary: 'List estimates',
    description: 'Live estimates, oldest first; the number as reference_no, no timestamps.',
    query: ListEstimatesDto,
    success: EstimateListResponseDto,
    errors: { 422: 'A malformed filter or page' },
  })
  list(@RequestInput() query: ListEstimatesDto): Promise<ListAnswer<EstimateListResponseDto>> {
    return this.estimates.list(query);
  }

  @Post('add')
  @Idempotent()
  @ApiEndpoint({
    summary: 'Add an estimate',
    description: 'Answers the number as estimate_no and the lines without amounts.',
    body: CreateEstimateDto,
    success: EstimateWriteResponseDto,
    errors: { 409: 'estimate_no is already used by a live estimate', 422: INVALID },
  })
  create(@RequestInput() input: CreateEstimateDto): Promise<EstimateWriteResponseDto> {
    return this.estimates.create(input);
  }

  @Post('send')
  @Idempotent()
  @ApiEndpoint({
    summary: 'Send an estimate',
    description: 'Appends a send_log entry; accepted is unchanged.',
    body: SendDocumentDto,
    success: MessageResponseDto,
    errors: {
      404: NOT_FOUND,
      409: 'The estimate is a draft',
      422: 'A missing or malformed id or e-mail address',
    },
  })
  send(@RequestInput() input: SendDocumentDto): Promise<MessageResponseDto> {
    return this.estimates.send(input);
  }

  @Post(':id/convert')
  @Idempotent()
  @ApiEndpoint({
    summary: 'Convert an estimate into an invoice',
    description:
      'Beyond the specification: a Not Paid invoice with the estimate’s client, lines, currency, tax, description and note; the estimate becomes accepted. Answers like invoice add.',
    pathId: 'Id of the estimate',
    body: ConvertEstimateDto,
    success: InvoiceWriteResponseDto,
    errors: {
      404: NOT_FOUND,
      409: 'Already converted, a draft, or invoice_no is already used by a live invoice',
      422: 'A missing or malformed parameter, an archived client, due before issue',
    },
  })
  convert(
    @Param('id', ParseIdPipe) id: number,
    @RequestInput() input: ConvertEstimateDto,
  ): Promise<InvoiceWriteResponseDto> {
    return this.estimates.convert(id, input);
  }

  @Post(':id/issue')
  @Idempotent()
  @ApiEndpoint({
    summary: 'Issue a draft estimate',
    description:
      'Beyond the specification: the draft takes the next number of the estimate series and its issue date; it can then be sent and converted. The due date keeps the draft’s term. Answers the estimate as read.',
    pathId: 'Id of the estimate',
    body: IssueDocumentDto,
    success: EstimateReadResponseDto,
    errors: { 404: NOT_FOUND, 409: 'The estimate is not a draft', 422: 'A malformed issue_date' },
  })
  issue(
    @Param('id', ParseIdPipe) id: number,
    @RequestInput() input: IssueDocumentDto,
  ): Promise<EstimateReadResponseDto> {
    return this.estimates.issue(id, input);
  }

  @Get(':id/pdf')
  @ApiEndpoint({
    summary: 'An estimate as a PDF',
    description:
      'Beyond the specification: the estimate printed on A4, with the issuer from the COMPANY_* settings, the client, the lines and the totals.',
    pathId: 'Id of the estimate',
    success: {
      mediaType: PDF_MEDIA_TYPE,
      description: 'The estimate as a PDF',
      filename: '<estimate_no>.pdf',
    },
    errors: { 404: NOT_FOUND },
  })
  pdf(@Param('id', ParseIdPipe) id: number): Promise<StreamableFile> {
    return this.estimates.pdf(id);
  }

  @Get(':id')
  @ApiEndpoint({
    summary: 'Read an estimate',
    description: 'The number as reference_no, no timestamps; lines with amounts and the send log.',
    pathId: 'Id of the estimate',
    success: EstimateReadResponseDto,
    errors: { 404: NOT_FOUND },
  })
  get(@Param('id', ParseIdPipe) id: number): Promise<EstimateReadResponseDto> {
    return this.estimates.get(id);
  }

  @Put(':id')
  @Idempotent()
  @ApiEndpoint({
    summary: 'Update an estimate',
    description:
      'Takes the parameters of add; items left out keep the lines, an optional field left out keeps its value.',
    pathId: 'Id of the estimate',
    body: UpdateEstimateDto,
    success: EstimateWriteResponseDto,
    errors: {
      404: NOT_FOUND,
      409: 'estimate_no is already used by another live estimate',
      422: INVALID,
    },
  })
  update(
    @Param('id', ParseIdPipe) id: number,
    @RequestInput() input: UpdateEstimateDto,
  ): Promise<EstimateWriteResponseDto> {
    return this.estimates.update(id, input);
  }

  @Delete(':id')
  @ApiEndpoint({
    summary: 'Delete (archive) an estimate',
    description:
      'The estimate leaves every list and answers 404 from then on; its lines and sends stay.',
    pathId: 'Id of the estimate',
    success: DeletedResponseDto,
    errors: { 404: NOT_FOUND },
  })
  archive(@Param('id', ParseIdPipe) id: number): Promise<DeletedResponseDto> {
    return this.estimates.archive(id);
  }
}
