import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import { Database, isUniqueViolation } from '../database/database';
import { ExpenseSource } from './entities/expense-source.entity';

const INSERT_SOURCE = `
  INSERT INTO expense_sources (expense_id, format, seller_key, seller_vat_id, invoice_number,
    type_code, details, media_type, content)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`;

/** The expense_sources table. Every method runs in the caller's transaction when there is one. */
@Injectable()
export class ExpenseSourcesRepository {
  constructor(private readonly database: Database) {}

  /** What the expenses answer as `source`, by expense id; the files stay unread. */
  async findDetails(expenseIds: number[]): Promise<Map<number, ExpenseSource>> {
    if (expenseIds.length === 0) return new Map();
    const rows = await this.database.manager.find(ExpenseSource, {
      where: { expenseId: In(expenseIds) },
    });
    return new Map(rows.map((row) => [row.expenseId, row]));
  }

  /** The file an expense was imported from, with its media type and number; null for none. */
  findFile(
    expenseId: number,
  ): Promise<Pick<ExpenseSource, 'content' | 'mediaType' | 'invoiceNumber' | 'format'> | null> {
    return this.database.manager.findOne(ExpenseSource, {
      select: {
        expenseId: true,
        content: true,
        mediaType: true,
        invoiceNumber: true,
        format: true,
      },
      where: { expenseId },
    });
  }

  /**
   * One prepared statement on MySQL/MariaDB (Database.write): the file goes as bytes in the
   * binary protocol. TypeORM's text protocol would write it as hex, twice its size, and a
   * 10 MB file would pass MariaDB's default max_allowed_packet (16 MB).
   */
  async insert(source: ExpenseSource): Promise<void> {
    await this.database.write(INSERT_SOURCE, [
      source.expenseId,
      source.format,
      source.sellerKey,
      source.sellerVatId,
      source.invoiceNumber,
      source.typeCode,
      JSON.stringify(source.details),
      source.mediaType,
      source.content,
    ]);
  }

  /** True when an insert failed because the seller's invoice number was imported before. */
  isDuplicate(error: unknown): boolean {
    return isUniqueViolation(error, 'uq_expense_sources_invoice', 'expense_sources.seller_key');
  }
}
