import { AGING_BUCKETS } from './domain/aging';
import { CsvColumn, toCsv } from './domain/csv';
import {
  AgingReportDto,
  ProfitAndLossFiguresDto,
  ProfitAndLossReportDto,
  StatementDto,
  TaxSummaryReportDto,
} from './dto/report-response.dto';

/*
 * Each report as CSV: one row per line of the JSON report, in the same order, with the
 * columns docs/receivables.md lists. Text a stranger may have typed (names, numbers,
 * references) is a text column; amounts are written exactly as in the JSON.
 */

const AGING_COLUMNS: CsvColumn[] = [
  { name: 'currency' },
  { name: 'line' },
  { name: 'client_id' },
  { name: 'client', text: true },
  { name: 'invoices' },
  ...AGING_BUCKETS.map((bucket) => ({ name: bucket })),
  { name: 'total' },
];

export function agingCsv(report: AgingReportDto): string {
  const rows = report.currencies.flatMap((section) => [
    ...section.clients.map((client) => [
      section.currency,
      'client',
      client.client_id,
      client.client,
      String(client.invoices),
      ...AGING_BUCKETS.map((bucket) => client[bucket]),
      client.total,
    ]),
    [
      section.currency,
      'total',
      '',
      '',
      String(section.totals.invoices),
      ...AGING_BUCKETS.map((bucket) => section.totals[bucket]),
      section.totals.total,
    ],
  ]);
  return toCsv(AGING_COLUMNS, rows);
}

const PROFIT_AND_LOSS_COLUMNS: CsvColumn[] = [
  { name: 'currency' },
  { name: 'month' },
  { name: 'line' },
  { name: 'category' },
  { name: 'amount' },
];

export function profitAndLossCsv(report: ProfitAndLossReportDto): string {
  const linesOf = (currency: string, month: string, figures: ProfitAndLossFiguresDto) => [
    [currency, month, 'income', '', figures.income],
    ...Object.entries(figures.expenses).map(([category, amount]) => [
      currency,
      month,
      'expense',
      category,
      amount,
    ]),
    [currency, month, 'expenses_total', '', figures.expenses_total],
    [currency, month, 'profit', '', figures.profit],
  ];
  const rows = report.currencies.flatMap((section) => [
    ...section.months.flatMap((month) => linesOf(section.currency, month.month, month)),
    ...linesOf(section.currency, 'total', section.totals),
  ]);
  return toCsv(PROFIT_AND_LOSS_COLUMNS, rows);
}

const TAX_SUMMARY_COLUMNS: CsvColumn[] = [
  { name: 'currency' },
  { name: 'line' },
  { name: 'tax_rate' },
  { name: 'invoices' },
  { name: 'credit_notes' },
  { name: 'taxable' },
  { name: 'tax' },
  // Beyond the rate, appended so the columns before keep their places.
  { name: 'tax_name', text: true },
  { name: 'category' },
];

export function taxSummaryCsv(report: TaxSummaryReportDto): string {
  const rows = report.currencies.flatMap((section) => [
    ...section.rates.map((rate) => [
      section.currency,
      'rate',
      String(rate.tax_rate),
      String(rate.invoices),
      String(rate.credit_notes),
      rate.taxable,
      rate.tax,
      rate.name,
      rate.category,
    ]),
    [
      section.currency,
      'total',
      '',
      String(section.totals.invoices),
      String(section.totals.credit_notes),
      section.totals.taxable,
      section.totals.tax,
      '',
      '',
    ],
  ]);
  return toCsv(TAX_SUMMARY_COLUMNS, rows);
}

const STATEMENT_COLUMNS: CsvColumn[] = [
  { name: 'currency' },
  { name: 'date' },
  { name: 'type' },
  { name: 'reference', text: true },
  { name: 'invoice_no', text: true },
  { name: 'amount' },
  { name: 'balance' },
];

export function statementCsv(statement: StatementDto): string {
  const rows = statement.currencies.flatMap((section) => [
    [section.currency, statement.from, 'opening', '', '', '', section.opening_balance],
    ...section.lines.map((line) => [
      section.currency,
      line.date,
      line.type,
      line.reference,
      line.invoice_no,
      line.amount,
      line.balance,
    ]),
    [section.currency, statement.to, 'closing', '', '', '', section.closing_balance],
  ]);
  return toCsv(STATEMENT_COLUMNS, rows);
}
