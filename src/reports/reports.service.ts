import { Injectable, StreamableFile } from '@nestjs/common';
import { ClientDto } from '../clients/dto/client-response.dto';
import { ClientsService } from '../clients/clients.service';
import { Clock } from '../common/clock';
import { DomainException } from '../common/domain.exception';
import { Decimal, ZERO } from '../common/money/decimal';
import { formatMoney } from '../common/money/money';
import { AppConfig } from '../config/app-config';
import { Database } from '../database/database';
import { documentLocale } from '../documents/i18n/document-messages';
import { PDF_MEDIA_TYPE } from '../documents/pdf/document-pdf.renderer';
import { inlineFile } from '../http/inline-file';
import { AGING_BUCKETS, AgingBucket } from './domain/aging';
import {
  AgingQueryDto,
  PeriodQueryDto,
  ProfitAndLossQueryDto,
  ReportFormat,
  StatementPeriodDto,
  StatementQueryDto,
} from './dto/report-query.dto';
import {
  AgingAmountsDto,
  AgingReportDto,
  ProfitAndLossFiguresDto,
  ProfitAndLossReportDto,
  StatementDto,
  StatementLineDto,
  TaxSummaryReportDto,
  TaxTotalsDto,
} from './dto/report-response.dto';
import { renderStatementPdf } from './pdf/statement-pdf.renderer';
import { agingCsv, profitAndLossCsv, statementCsv, taxSummaryCsv } from './reports.csv';
import { toStatementView } from './reports.mapper';
import { DocumentCount, Period, ReportsRepository, TaxFact } from './reports.repository';
import { VatCategory } from '../documents/domain/vat-categories';

export const CSV_MEDIA_TYPE = 'text/csv; charset=utf-8';

/** A report as JSON in the envelope, or as a CSV file. */
export type ReportAnswer<T> = { data: T } | StreamableFile;

/**
 * The receivables reports (docs/receivables.md). The repository
 * hands over facts, grouped by the database where it sums exactly and row by row where it
 * does not; they are folded here with exact decimals into the report, then formatted with each
 * currency's minor digits.
 */
@Injectable()
export class ReportsService {
  constructor(
    private readonly reports: ReportsRepository,
    private readonly clients: ClientsService,
    private readonly database: Database,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  async aging(query: AgingQueryDto): Promise<ReportAnswer<AgingReportDto>> {
    const asOf = query.as_of ?? this.clock.today();
    type Sums = Record<AgingBucket, Decimal> & { invoices: number };
    const byCurrency = new Map<string, Map<number, Sums>>();
    await this.database.read(() =>
      this.reports.aging(asOf, (fact) => {
        const clients = getOrAdd(byCurrency, fact.currency, () => new Map<number, Sums>());
        const sums = clients.get(fact.clientId);
        // A client's first fact is taken as it is (MySQL hands one per client and currency).
        if (sums === undefined) {
          clients.set(fact.clientId, { ...fact.balances, invoices: fact.invoices });
          return;
        }
        for (const bucket of AGING_BUCKETS) {
          sums[bucket] = sums[bucket].plus(fact.balances[bucket]);
        }
        sums.invoices += fact.invoices;
      }),
    );
    // A client whose every counted invoice was taken back (settled by as_of) owes nothing then.
    for (const [currency, clients] of byCurrency) {
      for (const [id, sums] of clients) if (sums.invoices === 0) clients.delete(id);
      if (clients.size === 0) byCurrency.delete(currency);
    }
    const ids = [...new Set([...byCurrency.values()].flatMap((clients) => [...clients.keys()]))];
    const names = await this.clients.namesOf(ids);
    const amounts = (sums: Sums, currency: string): AgingAmountsDto => {
      const total = AGING_BUCKETS.reduce((all, bucket) => all.plus(sums[bucket]), ZERO);
      return {
        invoices: sums.invoices,
        ...(Object.fromEntries(
          AGING_BUCKETS.map((bucket) => [bucket, formatMoney(sums[bucket], currency)]),
        ) as Record<AgingBucket, string>),
        total: formatMoney(total, currency),
      };
    };
    const report: AgingReportDto = {
      as_of: asOf,
      currencies: sortedKeys(byCurrency).map((currency) => {
        const clients = byCurrency.get(currency)!;
        const totals = { invoices: 0 } as Sums;
        for (const bucket of AGING_BUCKETS) totals[bucket] = ZERO;
        for (const sums of clients.values()) {
          totals.invoices += sums.invoices;
          for (const bucket of AGING_BUCKETS) totals[bucket] = totals[bucket].plus(sums[bucket]);
        }
        const rows = [...clients].map(([id, sums]) => ({
          client_id: String(id),
          client: names.get(id) ?? '',
          ...amounts(sums, currency),
        }));
        rows.sort((a, b) => compareText(a.client, b.client) || +a.client_id - +b.client_id);
        return { currency, clients: rows, totals: amounts(totals, currency) };
      }),
    };
    return this.answer(report, query.format, agingCsv, `aging-${asOf}.csv`);
  }

  async profitAndLoss(query: ProfitAndLossQueryDto): Promise<ReportAnswer<ProfitAndLossReportDto>> {
    const period = this.period(query);
    const basis = query.basis ?? 'accrual';
    type Month = { income: Decimal; expenses: Map<string, Decimal> };
    const byCurrency = new Map<string, Map<string, Month>>();
    const monthOf = (currency: string, month: string) =>
      getOrAdd(
        getOrAdd(byCurrency, currency, () => new Map<string, Month>()),
        month,
        () => ({
          income: ZERO,
          expenses: new Map<string, Decimal>(),
        }),
      );
    const addIncome =
      (sign: 1 | -1) => (fact: { currency: string; month: string; amount: Decimal }) => {
        const month = monthOf(fact.currency, fact.month);
        month.income = month.income.plus(fact.amount.times(sign));
      };
    await this.database.read(async () => {
      if (basis === 'cash') {
        await this.reports.cashIncome(period, addIncome(1));
      } else {
        await this.reports.invoiceIncome(period, addIncome(1));
        await this.reports.creditNoteIncome(period, addIncome(-1));
      }
      await this.reports.expenses(period, (fact) => {
        const month = monthOf(fact.currency, fact.month);
        month.expenses.set(
          fact.category,
          (month.expenses.get(fact.category) ?? ZERO).plus(fact.amount),
        );
      });
    });
    const figures = (month: Month, currency: string): ProfitAndLossFiguresDto => {
      const spent = [...month.expenses.values()].reduce((all, amount) => all.plus(amount), ZERO);
      return {
        income: formatMoney(month.income, currency),
        expenses: Object.fromEntries(
          sortedKeys(month.expenses).map((category) => [
            category,
            formatMoney(month.expenses.get(category)!, currency),
          ]),
        ),
        expenses_total: formatMoney(spent, currency),
        profit: formatMoney(month.income.minus(spent), currency),
      };
    };
    const report: ProfitAndLossReportDto = {
      basis,
      ...period,
      currencies: sortedKeys(byCurrency).map((currency) => {
        const months = byCurrency.get(currency)!;
        const totals: Month = { income: ZERO, expenses: new Map() };
        for (const month of months.values()) {
          totals.income = totals.income.plus(month.income);
          for (const [category, amount] of month.expenses) {
            totals.expenses.set(category, (totals.expenses.get(category) ?? ZERO).plus(amount));
          }
        }
        return {
          currency,
          months: sortedKeys(months).map((month) => ({
            month,
            ...figures(months.get(month)!, currency),
          })),
          totals: figures(totals, currency),
        };
      }),
    };
    return this.answer(
      report,
      query.format,
      profitAndLossCsv,
      `profit-and-loss-${basis}-${period.from}-${period.to}.csv`,
    );
  }

  async taxSummary(query: PeriodQueryDto): Promise<ReportAnswer<TaxSummaryReportDto>> {
    const period = this.period(query);
    type Sums = { invoices: number; creditNotes: number; taxable: Decimal; tax: Decimal };
    type Group = Sums & { name: string; category: VatCategory; rate: Decimal };
    const byCurrency = new Map<string, Map<string, Group>>();
    const add = (kind: 'invoices' | 'creditNotes', sign: 1 | -1) => (fact: TaxFact) => {
      const rates = getOrAdd(byCurrency, fact.currency, () => new Map<string, Group>());
      const key = JSON.stringify([fact.name, fact.category, fact.taxRate.toFixed()]);
      const sums = getOrAdd(rates, key, () => ({
        name: fact.name,
        category: fact.category,
        rate: fact.taxRate,
        invoices: 0,
        creditNotes: 0,
        taxable: ZERO,
        tax: ZERO,
      }));
      sums[kind] += fact.documents;
      sums.taxable = sums.taxable.plus(fact.taxable.times(sign));
      sums.tax = sums.tax.plus(fact.tax.times(sign));
    };
    // The totals count documents, each once however many tax groups it has.
    const counts = new Map<string, { invoices: number; creditNotes: number }>();
    const count = (kind: 'invoices' | 'creditNotes') => (fact: DocumentCount) => {
      getOrAdd(counts, fact.currency, () => ({ invoices: 0, creditNotes: 0 }))[kind] +=
        fact.documents;
    };
    await this.database.read(async () => {
      await this.reports.invoiceTax(period, add('invoices', 1));
      await this.reports.creditNoteTax(period, add('creditNotes', -1));
      await this.reports.invoiceCount(period, count('invoices'));
      await this.reports.creditNoteCount(period, count('creditNotes'));
    });
    const totalsOf = (sums: Sums, currency: string): TaxTotalsDto => ({
      invoices: sums.invoices,
      credit_notes: sums.creditNotes,
      taxable: formatMoney(sums.taxable, currency),
      tax: formatMoney(sums.tax, currency),
    });
    const report: TaxSummaryReportDto = {
      ...period,
      currencies: sortedKeys(byCurrency).map((currency) => {
        // By rate, then name, then category: one order whatever the database answered first.
        const rates = [...byCurrency.get(currency)!.values()].sort(
          (a, b) =>
            a.rate.comparedTo(b.rate) ||
            compareText(a.name, b.name) ||
            compareText(a.category, b.category),
        );
        const documents = counts.get(currency);
        const totals: Sums = {
          invoices: documents?.invoices ?? 0,
          creditNotes: documents?.creditNotes ?? 0,
          taxable: ZERO,
          tax: ZERO,
        };
        for (const sums of rates) {
          totals.taxable = totals.taxable.plus(sums.taxable);
          totals.tax = totals.tax.plus(sums.tax);
        }
        return {
          currency,
          rates: rates.map((sums) => ({
            tax_rate: sums.rate.toNumber(),
            name: sums.name,
            category: sums.category,
            ...totalsOf(sums, currency),
          })),
          totals: totalsOf(totals, currency),
        };
      }),
    };
    return this.answer(
      report,
      query.format,
      taxSummaryCsv,
      `tax-summary-${period.from}-${period.to}.csv`,
    );
  }

  async statement(clientId: number, query: StatementQueryDto): Promise<ReportAnswer<StatementDto>> {
    const client = await this.clients.get(clientId);
    const statement = await this.buildStatement(client, query);
    return this.answer(
      statement,
      query.format,
      statementCsv,
      `statement-${statement.client.id}-${statement.to}.csv`,
    );
  }

  async statementPdf(clientId: number, query: StatementPeriodDto): Promise<StreamableFile> {
    const client = await this.clients.get(clientId);
    const statement = await this.buildStatement(client, query);
    const pdf = await renderStatementPdf(
      toStatementView(statement, client.address),
      this.config.company,
      // In the client's language, as its documents are; JSON and CSV stay machine formats.
      documentLocale(client.language, this.config.documentLocale),
    );
    return inlineFile(pdf, `statement-${statement.client.id}-${statement.to}.pdf`, PDF_MEDIA_TYPE);
  }

  /**
   * Per currency: the opening balance (what is dated before `from`), each invoice and ledger
   * entry in the period in date order (on one date, invoices first, then entries, each by id),
   * the running balance, and the closing balance.
   */
  private async buildStatement(
    client: ClientDto,
    query: StatementPeriodDto,
  ): Promise<StatementDto> {
    const clientId = Number(client.id);
    const to = query.to ?? this.clock.today();
    const from = query.from ?? '';
    if (from !== '' && to < from)
      throw DomainException.invalidField('to', 'to must not be before from');
    const { invoices, entries } = await this.database.read(async () => ({
      invoices: await this.reports.statementInvoices(clientId, to),
      entries: await this.reports.statementEntries(clientId, to),
    }));
    type Line = {
      date: string;
      order: number;
      id: number;
      type: StatementLineDto['type'];
      reference: string;
      invoiceNo: string;
      amount: Decimal;
      currency: string;
    };
    const lines: Line[] = [
      ...invoices.map((invoice) => ({
        date: invoice.issueDate,
        order: 0,
        id: invoice.id,
        type: 'invoice' as const,
        reference: invoice.invoiceNo,
        invoiceNo: invoice.invoiceNo,
        amount: invoice.total,
        currency: invoice.currency,
      })),
      ...entries.map((entry) => ({
        date: entry.date,
        order: 1,
        id: entry.id,
        type: ENTRY_TYPES[entry.status],
        reference:
          entry.status === 'Credited' ? (entry.creditNoteNo ?? entry.reference) : entry.reference,
        invoiceNo: entry.invoiceNo,
        amount: entry.status === 'Refunded' ? entry.amount : entry.amount.negated(),
        currency: entry.currency,
      })),
    ].sort((a, b) => compareText(a.date, b.date) || a.order - b.order || a.id - b.id);
    const byCurrency = new Map<string, { opening: Decimal; lines: Line[] }>();
    for (const line of lines) {
      const section = getOrAdd(byCurrency, line.currency, () => ({
        opening: ZERO,
        lines: [] as Line[],
      }));
      if (from !== '' && line.date < from) section.opening = section.opening.plus(line.amount);
      else section.lines.push(line);
    }
    return {
      client: { id: client.id, names: client.names, email: client.email },
      from,
      to,
      currencies: sortedKeys(byCurrency).map((currency) => {
        const section = byCurrency.get(currency)!;
        let balance = section.opening;
        const money = (value: Decimal) => formatMoney(value, currency);
        return {
          currency,
          opening_balance: money(section.opening),
          lines: section.lines.map((line) => {
            balance = balance.plus(line.amount);
            return {
              date: line.date,
              type: line.type,
              reference: line.reference,
              invoice_no: line.invoiceNo,
              amount: money(line.amount),
              balance: money(balance),
            };
          }),
          closing_balance: money(balance),
        };
      }),
    };
  }

  /** `from` and `to` of a period report: to defaults to today, from to the first of its year. */
  private period(query: PeriodQueryDto): Period {
    const to = query.to ?? this.clock.today();
    const from = query.from ?? `${to.slice(0, 4)}-01-01`;
    if (to < from) throw DomainException.invalidField('to', 'to must not be before from');
    return { from, to };
  }

  private answer<T>(
    report: T,
    format: ReportFormat | undefined,
    toCsv: (report: T) => string,
    filename: string,
  ): ReportAnswer<T> {
    if (format !== 'csv') return { data: report };
    return inlineFile(Buffer.from(toCsv(report), 'utf8'), filename, CSV_MEDIA_TYPE);
  }
}

const ENTRY_TYPES = {
  Completed: 'payment',
  Refunded: 'refund',
  Credited: 'credit_note',
} as const;

function getOrAdd<K, V>(map: Map<K, V>, key: K, create: () => V): V {
  let value = map.get(key);
  if (value === undefined) {
    value = create();
    map.set(key, value);
  }
  return value;
}

function sortedKeys<V>(map: Map<string, V>): string[] {
  return [...map.keys()].sort(compareText);
}

/** Code-point order: the same on every machine, whatever its locale. */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
