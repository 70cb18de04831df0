import { ApiProperty } from '@nestjs/swagger';
import { VAT_CATEGORIES, VatCategory } from '../../documents/domain/vat-categories';
import {
  CurrencyProperty,
  DateProperty,
  EnumProperty,
  IdProperty,
  TextProperty,
} from '../../openapi/schema-property.decorator';

/** An exact amount as text with the currency's minor digits; negative where it may be. */
function AmountProperty(description: string): PropertyDecorator {
  return ApiProperty({
    type: 'string',
    pattern: '^-?[0-9]+(\\.[0-9]+)?$',
    example: '1250.00',
    description: `${description}. Numeric text with the currency’s minor digits.`,
  });
}

function CountProperty(description: string): PropertyDecorator {
  return ApiProperty({ type: 'integer', minimum: 0, description });
}

const BUCKETS_DESCRIPTION =
  'Balances by days past due: current (not yet due, due today included), 1-30, 31-60, 61-90, over_90';

/* Aging */

export class AgingAmountsDto {
  @CountProperty('Invoices with a balance')
  invoices: number;

  @AmountProperty('Not yet due')
  current: string;

  @AmountProperty('1 to 30 days past due')
  '1-30': string;

  @AmountProperty('31 to 60 days past due')
  '31-60': string;

  @AmountProperty('61 to 90 days past due')
  '61-90': string;

  @AmountProperty('91 days or more past due')
  over_90: string;

  @AmountProperty('All buckets')
  total: string;
}

export class AgingClientDto extends AgingAmountsDto {
  @IdProperty('The client')
  client_id: string;

  @TextProperty('The client’s name')
  client: string;
}

export class AgingCurrencyDto {
  @CurrencyProperty()
  currency: string;

  @ApiProperty({ type: [AgingClientDto], description: 'By client name, then id' })
  clients: AgingClientDto[];

  @ApiProperty({ type: AgingAmountsDto })
  totals: AgingAmountsDto;
}

export class AgingReportDto {
  @DateProperty('The date of the balances')
  as_of: string;

  @ApiProperty({
    type: [AgingCurrencyDto],
    description: `${BUCKETS_DESCRIPTION}; per currency, by code`,
  })
  currencies: AgingCurrencyDto[];
}

export class AgingResponseDto {
  @ApiProperty({ type: AgingReportDto })
  data: AgingReportDto;
}

/* Profit and loss */

const EXPENSES_BY_CATEGORY = {
  type: 'object',
  additionalProperties: { type: 'string', pattern: '^[0-9]+(\\.[0-9]+)?$' },
  example: { Travel: '120.00', Software: '49.00' },
  description: 'Σ expenses by category; only categories with expenses',
} as const;

export class ProfitAndLossFiguresDto {
  @AmountProperty('Income without tax')
  income: string;

  @ApiProperty(EXPENSES_BY_CATEGORY)
  expenses: Record<string, string>;

  @AmountProperty('Σ expenses')
  expenses_total: string;

  @AmountProperty('income − expenses_total')
  profit: string;
}

export class ProfitAndLossMonthDto extends ProfitAndLossFiguresDto {
  @ApiProperty({ type: 'string', pattern: '^[0-9]{4}-[0-9]{2}$', example: '2026-03' })
  month: string;
}

export class ProfitAndLossCurrencyDto {
  @CurrencyProperty()
  currency: string;

  @ApiProperty({ type: [ProfitAndLossMonthDto], description: 'Months with a figure, in order' })
  months: ProfitAndLossMonthDto[];

  @ApiProperty({ type: ProfitAndLossFiguresDto })
  totals: ProfitAndLossFiguresDto;
}

export class ProfitAndLossReportDto {
  @EnumProperty(['accrual', 'cash'])
  basis: string;

  @DateProperty()
  from: string;

  @DateProperty()
  to: string;

  @ApiProperty({ type: [ProfitAndLossCurrencyDto], description: 'Per currency, by code' })
  currencies: ProfitAndLossCurrencyDto[];
}

export class ProfitAndLossResponseDto {
  @ApiProperty({ type: ProfitAndLossReportDto })
  data: ProfitAndLossReportDto;
}

/* Tax summary */

export class TaxTotalsDto {
  @CountProperty('Invoices issued in the period')
  invoices: number;

  @CountProperty('Credit notes issued in the period')
  credit_notes: number;

  @AmountProperty(
    'Σ taxable_amount of the tax group in the VAT breakdown of invoices, less that of credit notes',
  )
  taxable: string;

  @AmountProperty('Σ tax_amount of the tax group of invoices less that of credit notes')
  tax: string;
}

/** One tax group: (name, category, rate) (docs/rules.md, taxes). */
export class TaxRateDto extends TaxTotalsDto {
  @ApiProperty({ type: 'number', minimum: 0, maximum: 100, example: 20, description: 'Percent' })
  tax_rate: number;

  @ApiProperty({ type: 'string', example: 'VAT', description: 'Beyond the rate: the tax’s name' })
  name: string;

  @EnumProperty(VAT_CATEGORIES, 'Beyond the rate: the UNCL 5305 VAT category')
  category: VatCategory;
}

export class TaxCurrencyDto {
  @CurrencyProperty()
  currency: string;

  @ApiProperty({
    type: [TaxRateDto],
    description: 'By tax group (name, category, rate): by rate ascending, then name, category',
  })
  rates: TaxRateDto[];

  @ApiProperty({ type: TaxTotalsDto })
  totals: TaxTotalsDto;
}

export class TaxSummaryReportDto {
  @DateProperty()
  from: string;

  @DateProperty()
  to: string;

  @ApiProperty({ type: [TaxCurrencyDto], description: 'Per currency, by code' })
  currencies: TaxCurrencyDto[];
}

export class TaxSummaryResponseDto {
  @ApiProperty({ type: TaxSummaryReportDto })
  data: TaxSummaryReportDto;
}

/* Client statement */

export const STATEMENT_LINE_TYPES = ['invoice', 'payment', 'refund', 'credit_note'] as const;
export type StatementLineType = (typeof STATEMENT_LINE_TYPES)[number];

export class StatementLineDto {
  @DateProperty('The invoice’s issue date, or the ledger entry’s date')
  date: string;

  @EnumProperty(STATEMENT_LINE_TYPES)
  type: StatementLineType;

  @TextProperty('The invoice number, the payment or refund reference, or the credit note number')
  reference: string;

  @TextProperty('The invoice it belongs to')
  invoice_no: string;

  @AmountProperty(
    'What it adds to the balance: invoices and refunds positive, payments and credit notes negative',
  )
  amount: string;

  @AmountProperty('The balance after it')
  balance: string;
}

export class StatementCurrencyDto {
  @CurrencyProperty()
  currency: string;

  @AmountProperty('Everything dated before `from`')
  opening_balance: string;

  @ApiProperty({
    type: [StatementLineDto],
    description: 'In date order; on one date invoices first',
  })
  lines: StatementLineDto[];

  @AmountProperty('The balance at `to`')
  closing_balance: string;
}

export class StatementClientDto {
  @IdProperty()
  id: string;

  @TextProperty()
  names: string;

  @TextProperty()
  email: string;
}

export class StatementDto {
  @ApiProperty({ type: StatementClientDto })
  client: StatementClientDto;

  @ApiProperty({ type: 'string', description: 'YYYY-MM-DD, or "" when not given' })
  from: string;

  @DateProperty()
  to: string;

  @ApiProperty({ type: [StatementCurrencyDto], description: 'Per currency, by code' })
  currencies: StatementCurrencyDto[];
}

export class StatementResponseDto {
  @ApiProperty({ type: StatementDto })
  data: StatementDto;
}
