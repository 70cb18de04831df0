import { Injectable } from '@nestjs/common';
import { EntityManager, FindOptionsWhere } from 'typeorm';
import { Clock } from '../common/clock';
import { DomainException } from '../common/domain.exception';
import { dateRange, requestedPage } from '../common/list-query.dto';
import { generateShortCode } from '../common/short-code';
import { LIVE } from '../database/columns';
import { Database } from '../database/database';
import { findList } from '../database/find-list';
import { categorizeExpense } from './domain/expense-category';
import { CreateExpenseDto } from './dto/create-expense.dto';
import { ExpenseResponseDto } from './dto/expense-response.dto';
import { ListExpensesDto } from './dto/list-expenses.dto';
import { UpdateExpenseDto } from './dto/update-expense.dto';
import { Expense } from './entities/expense.entity';
import { toOutput } from './expenses.mapper';

@Injectable()
export class ExpensesService {
  constructor(
    private readonly database: Database,
    private readonly clock: Clock,
  ) {}

  list(query: ListExpensesDto) {
    const where: FindOptionsWhere<Expense> = {
      ...LIVE,
      category: query.category,
      currency: query.currency,
      issuedDate: dateRange(query.from, query.to),
    };
    return this.database.read(async (manager) => {
      const { rows, meta } = await findList(manager, Expense, where, requestedPage(query));
      return { data: rows.map(toOutput), ...(meta && { meta }) };
    });
  }

  get(id: number): Promise<ExpenseResponseDto> {
    return this.database.read(async (manager) => {
      const expense = await findLiveExpense(manager, id);
      return { expense: [toOutput(expense)] };
    });
  }

  create(input: CreateExpenseDto): Promise<ExpenseResponseDto> {
    return this.database.transaction(async (manager) => {
      const now = this.clock.now();
      const vendor = input.vendor ?? '';
      const expense = manager.create(Expense, {
        shortCode: generateShortCode(),
        category: categorizeExpense(input.description, vendor),
        description: input.description,
        amount: input.amount,
        currency: input.currency,
        vendor,
        issuedDate: input.issue_date,
        createdAt: now,
        updatedAt: now,
        deletedAt: null,
      });
      await manager.insert(Expense, expense);
      return { expense: [toOutput(expense)] };
    });
  }

  update(id: number, input: UpdateExpenseDto): Promise<ExpenseResponseDto> {
    return this.database.transaction(async (manager) => {
      const expense = await findLiveExpense(manager, id, this.database.lockForUpdate);
      const vendor = input.vendor ?? expense.vendor;
      const changes = {
        description: input.description,
        vendor,
        category: categorizeExpense(input.description, vendor),
        amount: input.amount,
        currency: input.currency,
        issuedDate: input.issue_date,
        updatedAt: this.clock.now(),
      };
      await manager.update(Expense, id, changes);
      return { expense: [toOutput(Object.assign(expense, changes))] };
    });
  }

  archive(id: number): Promise<{ id: string }> {
    return this.database.transaction(async (manager) => {
      const expense = await findLiveExpense(manager, id, this.database.lockForUpdate);
      await manager.update(Expense, expense.id, { deletedAt: this.clock.now() });
      return { id: String(expense.id) };
    });
  }
}

async function findLiveExpense(
  manager: EntityManager,
  id: number,
  lock?: { mode: 'pessimistic_write' },
): Promise<Expense> {
  const expense = await manager.findOne(Expense, { where: { id, ...LIVE }, lock });
  if (!expense) throw DomainException.notFound('Expense', String(id));
  return expense;
}
