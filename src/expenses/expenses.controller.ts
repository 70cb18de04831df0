import { Controller, Delete, Get, Param, Post, Put } from '@nestjs/common';
import { ParseIdPipe } from '../http/parse-id.pipe';
import { RequestInput } from '../http/request-input.decorator';
import { CreateExpenseDto } from './dto/create-expense.dto';
import { ListExpensesDto } from './dto/list-expenses.dto';
import { UpdateExpenseDto } from './dto/update-expense.dto';
import { ExpensesService } from './expenses.service';

@Controller('expense')
export class ExpensesController {
  constructor(private readonly expenses: ExpensesService) {}

  @Get('all')
  list(@RequestInput() query: ListExpensesDto) {
    return this.expenses.list(query);
  }

  @Post('add')
  create(@RequestInput() input: CreateExpenseDto) {
    return this.expenses.create(input);
  }

  @Get(':id')
  get(@Param('id', ParseIdPipe) id: number) {
    return this.expenses.get(id);
  }

  @Put(':id')
  update(@Param('id', ParseIdPipe) id: number, @RequestInput() input: UpdateExpenseDto) {
    return this.expenses.update(id, input);
  }

  @Delete(':id')
  archive(@Param('id', ParseIdPipe) id: number) {
    return this.expenses.archive(id);
  }
}
