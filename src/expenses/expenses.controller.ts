import { Controller, Delete, Get, Param, Post, Put } from '@nestjs/common';
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
