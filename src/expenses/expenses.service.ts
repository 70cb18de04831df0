import { Injectable, StreamableFile } from '@nestjs/common';
import { Clock } from '../common/clock';
import { DomainException } from '../common/domain.exception';
import { dateRange } from '../common/list-query.dto';
import { generateShortCode, withFreshCode } from '../common/short-code';
import { Database } from '../database/database';
import { EventLog } from '../events/event-log';
import { listResponse, ListResult, StreamedList } from '../database/find-list';
import { inlineFile } from '../http/inline-file';
import { categorizeExpense } from './domain/expense-category';
import { sellerKey } from './domain/seller-key';
import { CreateExpenseDto } from './dto/create-expense.dto';
import { ExpenseResponseDto } from './dto/expense-response.dto';
import { ListExpensesDto } from './dto/list-expenses.dto';
import { UpdateExpenseDto } from './dto/update-expense.dto';
import { Expense } from './entities/expense.entity';
import { ExpensesRepository } from './expenses.repository';
import { sourceDetails, toOutput } from './expenses.mapper';
import { ExpenseSourcesRepository } from './expense-sources.repository';
import { ExpenseSource } from './entities/expense-source.entity';
import { ImportedEinvoice, readEinvoiceFile } from './einvoice/einvoice-import';

@Injectable()
export class ExpensesService {
  constructor(
    private readonly database: Database,
    private readonly expenses: ExpensesRepository,
    private readonly sources: ExpenseSourcesRepository,
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
    const listed = await this.withSources(await this.expenses.list(filter, query));
    return listResponse(listed, ([expense, source]) => toOutput(expense, source));
  }

  get(id: number): Promise<ExpenseResponseDto> {
    return this.database.read(async () => {
      const expense = await this.liveExpense(id);
      return { expense: [toOutput(expense, await this.sourceOf(expense.id))] };
    });
  }

  create(input: CreateExpenseDto): Promise<ExpenseResponseDto> {
    return this.database.transaction(async () => {
      const expense = await this.insertExpense({
        description: input.description,
        vendor: input.vendor ?? '',
        amount: input.amount,
        currency: input.currency,
        issuedDate: input.issue_date,
      });
      return this.created(expense, null);
    });
  }

  /**
   * `POST /expense/import`: a received e-invoice becomes an expense and its source, in one
   * transaction. The file is read and checked whole before anything is written; the unique
   * index on the seller and the invoice number refuses a second import (409) in the insert
   * itself, so two imports at once cannot both pass a check.
   */
  async import(content: Buffer): Promise<ExpenseResponseDto> {
    const received = await readEinvoiceFile(content);
    return this.database.transaction(async () => {
      const { invoice } = received;
      const expense = await this.insertExpense({
        description: `${invoice.creditNote ? 'Credit note' : 'Invoice'} ${invoice.number} from ${invoice.sellerName}`,
        vendor: invoice.sellerName,
        amount: received.amount,
        currency: invoice.currency,
        issuedDate: invoice.issueDate,
      });
      const source = this.sourceRow(expense.id, received);
      try {
        await this.sources.insert(source);
      } catch (error) {
        if (!this.sources.isDuplicate(error)) throw error;
        throw new DomainException(
          'DUPLICATE_EINVOICE',
          'This invoice number of this seller was imported before',
        );
      }
      return this.created(expense, source);
    });
  }

  /** `GET /expense/{id}/source`: the file a live expense was imported from, as it arrived. */
  async source(id: number): Promise<StreamableFile> {
    const file = await this.database.read(async () => {
      await this.liveExpense(id);
      return this.sources.findFile(id);
    });
    if (!file) throw DomainException.notFound('Source file of expense', String(id));
    const extension = file.format === 'facturx' ? 'pdf' : 'xml';
    return inlineFile(file.content, `${file.invoiceNumber}.${extension}`, file.mediaType);
  }

  update(id: number, input: UpdateExpenseDto): Promise<ExpenseResponseDto> {
    return this.database.transaction(async () => {
      const expense = await this.liveExpense(id, true);
      const source = await this.sourceOf(id);
      const before = { expense: [toOutput(expense, source)] };
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
      const answer = { expense: [toOutput(Object.assign(expense, changes), source)] };
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
      const before = { expense: [toOutput(expense, await this.sourceOf(id))] };
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

  /** Inserts a new expense with a fresh short code and the category its words give. */
  private insertExpense(
    fields: Pick<Expense, 'description' | 'vendor' | 'amount' | 'currency' | 'issuedDate'>,
  ): Promise<Expense> {
    const now = this.clock.now();
    return withFreshCode(
      generateShortCode,
      async (shortCode) => {
        const expense = this.expenses.create({
          ...fields,
          shortCode,
          category: categorizeExpense(fields.description, fields.vendor),
          createdAt: now,
          updatedAt: now,
          deletedAt: null,
        });
        await this.expenses.insert(expense);
        return expense;
      },
      (error) => this.expenses.shortCodeTaken(error),
    );
  }

  /** The answer to a new expense, and its event. */
  private async created(
    expense: Expense,
    source: ExpenseSource | null,
  ): Promise<ExpenseResponseDto> {
    const answer = { expense: [toOutput(expense, source)] };
    await this.events.record({
      type: 'expense.created',
      object: 'expense',
      id: expense.id,
      before: null,
      after: answer,
    });
    return answer;
  }

  private sourceRow(expenseId: number, received: ImportedEinvoice): ExpenseSource {
    const { invoice } = received;
    return Object.assign(new ExpenseSource(), {
      expenseId,
      format: received.format,
      sellerKey: sellerKey({ vatId: invoice.sellerVatId, name: invoice.sellerName }),
      sellerVatId: invoice.sellerVatId,
      invoiceNumber: invoice.number,
      typeCode: invoice.typeCode,
      details: sourceDetails(invoice),
      mediaType: received.mediaType,
      content: received.content,
    });
  }

  private async sourceOf(expenseId: number): Promise<ExpenseSource | null> {
    return (await this.sources.findDetails([expenseId])).get(expenseId) ?? null;
  }

  /** Each listed expense with its source (null for none): one more read per page or batch. */
  private async withSources(
    listed: ListResult<Expense>,
  ): Promise<ListResult<[Expense, ExpenseSource | null]>> {
    const pair = async (rows: Expense[]): Promise<Array<[Expense, ExpenseSource | null]>> => {
      const sources = await this.database.read(() =>
        this.sources.findDetails(rows.map((row) => row.id)),
      );
      return rows.map((row) => [row, sources.get(row.id) ?? null]);
    };
    if (!(listed instanceof StreamedList))
      return { rows: await pair(listed.rows), meta: listed.meta };
    const rest = listed.rest;
    return new StreamedList(
      await pair(listed.first),
      rest === null
        ? null
        : async function* () {
            for await (const batch of rest()) yield await pair(batch);
          },
    );
  }

  /** A live expense, or 404; `forUpdate` holds its row until the transaction ends. */
  private async liveExpense(id: number, forUpdate = false): Promise<Expense> {
    const expense = await this.expenses.findLive(id, { forUpdate });
    if (!expense) throw DomainException.notFound('Expense', String(id));
    return expense;
  }
}
