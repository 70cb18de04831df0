import { Injectable } from '@nestjs/common';
import { Clock } from '../common/clock';
import { DomainException } from '../common/domain.exception';
import { dateRange } from '../common/list-query.dto';
import { generateShortCode, withFreshCode } from '../common/short-code';
import { Database } from '../database/database';
import { EventLog } from '../events/event-log';
import { listResponse } from '../database/find-list';
import { categorizeExpense } from './domain/expense-category';
import { CreateExpenseDto } from './dto/create-expense.dto';
import { ExpenseResponseDto } from './dto/expense-response.dto';
import { ListExpensesDto } from './dto/list-expenses.dto';
import { UpdateExpenseDto } from './dto/update-expense.dto';
import { Expense } from './entities/expense.entity';
import { ExpensesRepository } from './expenses.repository';
import { toOutput } from './expenses.mapper';

@Injectable()
export class ExpensesService {
  constructor(
    private readonly database: Database,
    private readonly expenses: ExpensesRepository,
    private readonly clock: Clock,
    private readonly events: EventLog,
  ) {
    events.registerReader('expense', (id) => this.get(id));
  }

  async list(query: ListExpensesDto) {
    const filter = {
      category: query.category,
      currency: query.currency,
      issuedDate: dateRange(query.from, query.to),
    };
    return listResponse(await this.expenses.list(filter, query), toOutput);
  }

  get(id: number): Promise<ExpenseResponseDto> {
    return this.database.read(async () => ({ expense: [toOutput(await this.liveExpense(id))] }));
  }

  create(input: CreateExpenseDto): Promise<ExpenseResponseDto> {
    return this.database.transaction(async () => {
      const now = this.clock.now();
      const vendor = input.vendor ?? '';
      const expense = await withFreshCode(
        generateShortCode,
        async (shortCode) => {
          const expense = this.expenses.create({
            shortCode,
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
          await this.expenses.insert(expense);
          return expense;
        },
        (error) => this.expenses.shortCodeTaken(error),
      );
      const answer = { expense: [toOutput(expense)] };
      await this.events.record({
        type: 'expense.created',
        object: 'expense',
        id: expense.id,
        before: null,
        after: answer,
      });
      return answer;
    });
  }

  update(id: number, input: UpdateExpenseDto): Promise<ExpenseResponseDto> {
    return this.database.transaction(async () => {
      const expense = await this.liveExpense(id, true);
      const before = { expense: [toOutput(expense)] };
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
      await this.expenses.update(id, changes);
      const answer = { expense: [toOutput(Object.assign(expense, changes))] };
      await this.events.record({
        type: 'expense.updated',
        object: 'expense',
        id,
        before,
        after: answer,
      });
      return answer;
    });
  }

  /** DELETE: the row stays, marked archived. */
  archive(id: number): Promise<{ id: string }> {
    return this.database.transaction(async () => {
      const expense = await this.liveExpense(id, true);
      await this.expenses.update(expense.id, { deletedAt: this.clock.now() });
      const before = { expense: [toOutput(expense)] };
      await this.events.record({
        type: 'expense.deleted',
        object: 'expense',
        id,
        before,
        after: before,
      });
      return { id: String(expense.id) };
    });
  }

  /** A live expense, or 404; `forUpdate` holds its row until the transaction ends. */
  private async liveExpense(id: number, forUpdate = false): Promise<Expense> {
    const expense = await this.expenses.findLive(id, { forUpdate });
    if (!expense) throw DomainException.notFound('Expense', String(id));
    return expense;
  }
}
