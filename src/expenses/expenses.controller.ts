import { Controller, Delete, Get, Param, Post, Put, StreamableFile } from '@nestjs/common';
import { UploadedFileBytes } from '../http/uploaded-file.decorator';
import { DeletedResponseDto } from '../openapi/dto/deleted-response.dto';
import { ParseIdPipe } from '../http/parse-id.pipe';
import { RequestInput } from '../http/request-input.decorator';
import { ListAnswer } from '../database/find-list';
import { ApiEndpoint, ApiResource } from '../openapi/api-endpoint.decorator';
import { CreateExpenseDto } from './dto/create-expense.dto';
import { ExpenseListResponseDto, ExpenseResponseDto } from './dto/expense-response.dto';
import { ListExpensesDto } from './dto/list-expenses.dto';
import { UpdateExpenseDto } from './dto/update-expense.dto';
import { ExpensesService } from './expenses.service';
import { IMPORT_BODY } from './dto/import-expense.dto';
import { Idempotent } from '../idempotency/idempotent.decorator';

const NOT_FOUND = 'No live expense with this id';

@ApiResource('expenses')
@Controller('expense')
export class ExpensesController {
  constructor(private readonly expenses: ExpensesService) {}

  @Get('all')
  @ApiEndpoint({
    summary: 'List expenses',
    description: 'Live expenses, oldest first.',
    query: ListExpensesDto,
    success: ExpenseListResponseDto,
    errors: { 422: 'A malformed filter or page' },
  })
  list(@RequestInput() query: ListExpensesDto): Promise<ListAnswer<ExpenseListResponseDto>> {
    return this.expenses.list(query);
  }

  @Post('add')
  @Idempotent()
  @ApiEndpoint({
    summary: 'Add an expense',
    description: 'The service chooses its category from description and vendor.',
    body: CreateExpenseDto,
    success: ExpenseResponseDto,
    errors: { 422: 'A missing or malformed parameter' },
  })
  create(@RequestInput() input: CreateExpenseDto): Promise<ExpenseResponseDto> {
    return this.expenses.create(input);
  }

  @Post('import')
  @Idempotent()
  @ApiEndpoint({
    summary: 'Import a received e-invoice as an expense',
    description:
      'Beyond the specification: a received EN 16931 e-invoice (UBL 2.1 Invoice or CreditNote, UN/CEFACT CII D16B, or a Factur-X / ZUGFeRD PDF with its XML embedded) becomes an expense: description from the seller and the invoice number, amount the amount due (BT-115; taken off for a credit note), currency, issue date, vendor the seller, and `source` with what the document says. The file is kept (GET /expense/{id}/source). The XML may declare no DOCTYPE or ENTITY, nest at most 64 elements deep and hold at most 5 MB; the body at most 10 MB (413 beyond); a body in another media type answers 415.',
    upload: IMPORT_BODY,
    success: ExpenseResponseDto,
    errors: {
      409: 'This seller’s invoice number was imported before',
      422: 'No file; not XML or a PDF with an embedded e-invoice; a DOCTYPE or ENTITY, too deep, too large; neither UBL nor CII; a missing BT-1, BT-2, BT-5, BT-27 or BT-115; a failed calculation rule (BR-CO-10 to BR-CO-16): `errors` names each, by the file, the EN 16931 term or the rule',
    },
  })
  import(@UploadedFileBytes() file: Buffer): Promise<ExpenseResponseDto> {
    return this.expenses.import(file);
  }

  @Get(':id/source')
  @ApiEndpoint({
    summary: 'The e-invoice an expense was imported from',
    description:
      'Beyond the specification: the file as it was received, as application/xml or application/pdf.',
    pathId: 'Id of the expense',
    success: {
      mediaType: ['application/xml', 'application/pdf'],
      description: 'The file as it was received: XML, or the Factur-X / ZUGFeRD PDF',
      filename: '<invoice number>.xml or .pdf',
    },
    errors: { 404: `${NOT_FOUND}, or the expense was not imported` },
  })
  source(@Param('id', ParseIdPipe) id: number): Promise<StreamableFile> {
    return this.expenses.source(id);
  }

  @Get(':id')
  @ApiEndpoint({
    summary: 'Read an expense',
    description: 'One live expense with the category the service gave it.',
    pathId: 'Id of the expense',
    success: ExpenseResponseDto,
    errors: { 404: NOT_FOUND },
  })
  get(@Param('id', ParseIdPipe) id: number): Promise<ExpenseResponseDto> {
    return this.expenses.get(id);
  }

  @Put(':id')
  @Idempotent()
  @ApiEndpoint({
    summary: 'Update an expense',
    description:
      'Takes the parameters of add; a vendor left out keeps its value. The category is chosen again.',
    pathId: 'Id of the expense',
    body: UpdateExpenseDto,
    success: ExpenseResponseDto,
    errors: { 404: NOT_FOUND, 422: 'A missing or malformed parameter' },
  })
  update(
    @Param('id', ParseIdPipe) id: number,
    @RequestInput() input: UpdateExpenseDto,
  ): Promise<ExpenseResponseDto> {
    return this.expenses.update(id, input);
  }

  @Delete(':id')
  @ApiEndpoint({
    summary: 'Delete (archive) an expense',
    description: 'The expense leaves every list and the reports, and answers 404 from then on.',
    pathId: 'Id of the expense',
    success: DeletedResponseDto,
    errors: { 404: NOT_FOUND },
  })
  archive(@Param('id', ParseIdPipe) id: number): Promise<DeletedResponseDto> {
    return this.expenses.archive(id);
  }
}
