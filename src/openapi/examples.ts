import type { OpenAPIObject } from '@nestjs/swagger';
import type {
  ParameterObject,
  SchemaObject,
} from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';

/*
 * The examples of the OpenAPI document (the /docs page, generated mocks): one story told the
 * same way everywhere. A studio invoices its client Northwind Traders for a brand workshop, a
 * logo and business cards at 20 % VAT, after an accepted estimate; half is paid by bank
 * transfer; a train ticket is the month's expense. The amounts add up (examples.spec.ts).
 */

type Examples = Record<string, unknown>;

const CLIENT = {
  id: '42',
  names: 'Northwind Traders Ltd',
  email: 'accounts@northwind.example',
  phone: '+44 113 496 0321',
  address: '14 Wharf Street, Leeds LS2 7EQ',
  tax_id: 'GB123456789',
  country: 'GB',
  language: 'en',
  einvoice_address: '0088:5790000435975',
  einvoice_format: 'peppol',
  buyer_reference: 'PO 4500012345',
  created_at: '2026-02-16 11:05:42',
  updated_at: '2026-03-02 09:12:08',
};

const CUSTOMER = {
  customer_id: CLIENT.id,
  customer_name: CLIENT.names,
  customer_phone: CLIENT.phone,
  customer_address: CLIENT.address,
  customer_tax_id: CLIENT.tax_id,
  customer_country: CLIENT.country,
};

/** The tax every line carries: UK VAT at the standard rate. */
const VAT = { name: 'VAT', category: 'S', rate: 20 };

/** What a line holds beyond the specification: a unit, no discount, the VAT. */
const LINE_TERMS = { discount_percent: null, discount_amount: '0.00', taxes: [VAT] };

/** The lines: quantity × rate = amount, rounded to the currency's minor digits. */
export const EXAMPLE_LINES = [
  {
    description: 'Brand identity workshop (half day)',
    quantity: 2,
    rate: '450.00',
    amount: '900.00',
    unit: 'C62',
    ...LINE_TERMS,
  },
  {
    description: 'Logo design, three concepts',
    quantity: 1,
    rate: '1185.50',
    amount: '1185.50',
    unit: 'C62',
    ...LINE_TERMS,
  },
  {
    description: 'Business cards, box of 250',
    quantity: 3,
    rate: '38.65',
    amount: '115.95',
    unit: 'C62',
    ...LINE_TERMS,
  },
];

/** What a document holds beyond the specification: no discount, net prices, supplied in March. */
const TERMS = {
  discount_percent: null,
  discount_amount: '0.00',
  prices_include_tax: false,
  supply_date: '2026-03-02',
  period_start: '',
  period_end: '',
};

/** The invoice's VAT breakdown: one group, its taxable amount the sub-total. */
const TAX_GROUP = {
  ...VAT,
  taxable_amount: '2201.45',
  tax_amount: '440.29',
  exemption_reason: '',
  exemption_code: '',
};

/** The terms as input: each property given (a discount is given as one or the other). */
const TERMS_INPUT = {
  discount_percent: '5',
  discount_amount: '110.07',
  prices_include_tax: false,
  supply_date: '2026-03-02',
  period_start: '2026-03-01',
  period_end: '2026-03-31',
};

/** The priced document: sub_total = Σ amount, tax_amount = sub_total × tax_rate / 100. */
const PRICED = {
  currency: 'GBP',
  tax_rate: 20,
  sub_total: 2201.45,
  tax_amount: 440.29,
  total: 2641.74,
};

export const EXAMPLE_PAYMENT = {
  status: 'Completed',
  reference: 'PAY-7W3KQ9D2HX5MTB8R',
  amount: 1320.87,
  bank: 'Bank Transfer',
  payment_date: '2026-03-16',
  created_at: '2026-03-16 10:42:17',
  reason: '',
  credit_note_id: '',
};

export const EXAMPLE_INVOICE = {
  ...CUSTOMER,
  ...PRICED,
  id: '1187',
  short_code: '7KQ2M9XD',
  invoice_no: 'INV-2026-0042',
  description: 'Brand identity, phase 1',
  issue_date: '2026-03-02',
  due_date: '2026-04-01',
  note: 'Payable by bank transfer within 30 days. Thank you for your business.',
  payment_status: 'Not Paid',
  status: 'open',
  void_reason: '',
  recurring_invoice_id: '',
  buyer_reference: '04011000-12345-34',
  order_reference: 'PO 4500012345',
  amount_paid: '1320.87',
  outstanding_balance: '1320.87',
  created_at: '2026-03-02 09:31:40',
  updated_at: '2026-03-16 10:42:17',
  ...TERMS,
};

const ESTIMATE = {
  ...CUSTOMER,
  ...PRICED,
  ...TERMS,
  id: '311',
  short_code: 'R4NV8C2P',
  estimate_no: 'EST-2026-0017',
  reference_no: 'EST-2026-0017',
  description: EXAMPLE_INVOICE.description,
  issue_date: '2026-02-20',
  due_date: '2026-03-06',
  note: 'Valid for two weeks.',
  accepted: 'True',
  draft: false,
  created_at: '2026-02-20 14:03:55',
  updated_at: '2026-03-02 09:31:40',
};

/** The business cards, one box credited: 38.65 + 20 % tax. */
const CREDIT_NOTE = {
  ...CUSTOMER,
  currency: PRICED.currency,
  tax_rate: PRICED.tax_rate,
  sub_total: 38.65,
  tax_amount: 7.73,
  total: 46.38,
  id: '58',
  short_code: 'H6TD3ZQ1',
  credit_note_no: 'CN-2026-0005',
  invoice: EXAMPLE_INVOICE.id,
  invoice_id: EXAMPLE_INVOICE.id,
  invoice_no: EXAMPLE_INVOICE.invoice_no,
  refunded: '0.00',
  refund: false,
  issue_date: '2026-03-18',
  reason: 'One box of business cards arrived damaged',
  note: '',
  created_at: '2026-03-18 15:20:03',
  ...TERMS,
};

const EXPENSE = {
  id: '904',
  short_code: 'M2XK7P4W',
  category: 'Travel',
  description: 'Train to Leeds for the brand workshop',
  amount: '86.40',
  currency: PRICED.currency,
  vendor: 'LNER',
  issue_date: '2026-03-03',
  issued_date: '2026-03-03',
  created_at: '2026-03-03 18:47:29',
  updated_at: '2026-03-03 18:47:29',
  // Added by hand; an imported one carries EXPENSE_SOURCE.
  source: null,
};

/** The month's cloud hosting, imported from the supplier's CII (POST /expense/import's example). */
const EXPENSE_SOURCE_LINE = {
  id: '1',
  name: 'Cloud hosting, March',
  quantity: '1',
  unit: 'MON',
  net_price: '120.00',
  net_amount: '120.00',
  vat_category: 'S',
  vat_rate: '19',
};
const EXPENSE_SOURCE_TAX = {
  category: 'S',
  rate: '19',
  taxable_amount: '120.00',
  tax_amount: '22.80',
};
const EXPENSE_SOURCE = {
  format: 'cii',
  seller_vat_id: 'DE123456789',
  invoice_number: 'CC-2026-0311',
  type_code: '380',
  tax_breakdown: [EXPENSE_SOURCE_TAX],
  lines: [EXPENSE_SOURCE_LINE],
};

const EVENT = {
  id: '5120',
  type: 'invoice.payment_recorded',
  created_at: EXAMPLE_PAYMENT.created_at,
  actor: '3f2a9c0d81b7',
  object: 'invoice',
  object_id: EXAMPLE_INVOICE.id,
  data: {
    id: EXAMPLE_INVOICE.id,
    invoice_no: EXAMPLE_INVOICE.invoice_no,
    amount_paid: EXAMPLE_INVOICE.amount_paid,
    outstanding_balance: EXAMPLE_INVOICE.outstanding_balance,
  },
  changes: {
    amount_paid: ['0.00', EXAMPLE_INVOICE.amount_paid],
    outstanding_balance: ['2641.74', EXAMPLE_INVOICE.outstanding_balance],
  },
};

const WEBHOOK = {
  id: '7',
  url: 'https://erp.example.com/hooks/invoicing',
  events: ['invoice.payment_recorded', 'invoice.voided'],
  description: 'Bookkeeping: payments and voids',
  enabled: true,
  disabled_reason: '',
  created_at: '2026-01-12 08:00:31',
  updated_at: '2026-01-12 08:00:31',
  secret: 'whsec_MfKQ9r8GKYqrTAba8QGjqzlBnHYeGVGV',
};

/** The invoice series, after the story's invoice took its number. */
const NUMBER_SERIES = {
  kind: 'invoice',
  format: 'INV-{YYYY}-{SEQ:4}',
  period: '2026',
  next: 43,
  next_number: 'INV-2026-0043',
  updated_at: '2026-01-05 09:30:00',
};

const DELIVERY = {
  id: '2231',
  event_id: EVENT.id,
  event_type: EVENT.type,
  status: 'delivered',
  attempts: 1,
  next_attempt_at: null,
  delivered_at: '2026-03-16 10:42:18',
  created_at: EXAMPLE_PAYMENT.created_at,
  attempted_at: '2026-03-16 10:42:18',
  status_code: 200,
  duration_ms: 184,
  error: '',
  response_body: '{"received":true}',
};

const SEND_LOG = {
  email: CLIENT.email,
  phone: '',
  date: '2026-03-02 09:35:12',
  delivery: 'sent',
  attempts: 1,
  kind: 'document',
};

/** What Northwind still owes on 2026-03-20: the invoice's balance, not yet due. */
const AGING = {
  as_of: '2026-03-20',
  client_id: CLIENT.id,
  client: CLIENT.names,
  invoices: 1,
  current: EXAMPLE_INVOICE.outstanding_balance,
  '1-30': '0.00',
  '31-60': '0.00',
  '61-90': '0.00',
  over_90: '0.00',
  total: EXAMPLE_INVOICE.outstanding_balance,
};

/** March, accrual: the invoice's sub_total less the credit note's, less the train ticket. */
const PROFIT_AND_LOSS = {
  basis: 'accrual',
  from: '2026-03-01',
  to: '2026-03-31',
  month: '2026-03',
  income: '2162.80',
  expenses: { Travel: EXPENSE.amount },
  expenses_total: EXPENSE.amount,
  profit: '2076.40',
};

const TAX_SUMMARY = {
  from: '2026-03-01',
  to: '2026-03-31',
  tax_rate: PRICED.tax_rate,
  name: VAT.name,
  category: VAT.category,
  invoices: 1,
  credit_notes: 1,
  taxable: '2162.80',
  tax: '432.56',
};

/** Northwind's statement for March: the invoice, then the payment. */
const STATEMENT = {
  from: '2026-03-01',
  to: '2026-03-31',
  opening_balance: '0.00',
  date: EXAMPLE_PAYMENT.payment_date,
  type: 'payment',
  reference: EXAMPLE_PAYMENT.reference,
  invoice_no: EXAMPLE_INVOICE.invoice_no,
  amount: '-1320.87',
  balance: EXAMPLE_INVOICE.outstanding_balance,
  closing_balance: EXAMPLE_INVOICE.outstanding_balance,
};

/** A monthly retainer from 31 January: its periods fall on the month's last day when shorter. */
const RECURRING = {
  ...PRICED,
  discount_percent: null,
  discount_amount: '0.00',
  prices_include_tax: false,
  id: '12',
  customer_id: CLIENT.id,
  description: 'Monthly design retainer',
  note: EXAMPLE_INVOICE.note,
  interval: 'month',
  interval_count: 1,
  start_date: '2026-01-31',
  end_date: '',
  count: 12,
  due_days: 30,
  auto_send: true,
  email: '',
  draft: false,
  status: 'active',
  next_date: '2026-03-31',
  invoices_made: 2,
  created_at: '2026-01-20 14:05:11',
  updated_at: '2026-02-28 00:00:02',
};

/** The invoices it made: one per period, numbered from the series. */
const MADE_INVOICE = {
  id: EXAMPLE_INVOICE.id,
  invoice_no: 'INV-2026-0031',
  issue_date: '2026-02-28',
};

/** Its add input: what each invoice takes, and the cadence. */
const RECURRING_INPUT = {
  ...RECURRING,
  discount_percent: '5',
  discount_amount: '110.07',
  client: CLIENT.id,
  tax_rate: '20',
  end_date: '2026-12-31',
  email: CLIENT.email,
};

const MESSAGE = { message: `Payment recorded for invoice ${EXAMPLE_INVOICE.invoice_no}` };

/** Request bodies: what a client sends to make the records above. */
const INVOICE_INPUT = {
  ...EXAMPLE_INVOICE,
  ...TERMS_INPUT,
  draft: false,
  client: CLIENT.id,
  tax_rate: '20',
  email: CLIENT.email,
};

/** A line as input: its unit, a discount and its tax given. */
const LINE_INPUT = {
  ...EXAMPLE_LINES[0],
  discount_percent: '10',
  discount_amount: '90.00',
  taxes: [{ rate: '20', category: 'S', name: 'VAT' }],
};

/** Each component schema's property examples, by schema name. */
export const SCHEMA_EXAMPLES: Record<string, Examples> = {
  ClientDto: CLIENT,
  ClientListItemDto: CLIENT,
  CreateClientDto: CLIENT,
  UpdateClientDto: CLIENT,
  StatementClientDto: CLIENT,
  InvoiceDto: EXAMPLE_INVOICE,
  InvoiceWithTimestampsDto: EXAMPLE_INVOICE,
  CreateInvoiceDto: INVOICE_INPUT,
  UpdateInvoiceDto: INVOICE_INPUT,
  SendDocumentDto: { ...SEND_LOG, id: EXAMPLE_INVOICE.id },
  SendLogEntryDto: SEND_LOG,
  RecordPaymentDto: {
    id: EXAMPLE_INVOICE.id,
    payment_date: EXAMPLE_PAYMENT.payment_date,
    amount_paid: EXAMPLE_INVOICE.amount_paid,
    payment_method: EXAMPLE_PAYMENT.bank,
  },
  PaymentEntryDto: EXAMPLE_PAYMENT,
  RefundDto: {
    id: EXAMPLE_INVOICE.id,
    amount: '46.38',
    refund_date: '2026-03-18',
    payment_method: 'Bank Transfer',
    reason: CREDIT_NOTE.reason,
  },
  RefundResponseDto: { message: `Refund recorded for invoice ${EXAMPLE_INVOICE.invoice_no}` },
  VoidInvoiceDto: { reason: 'Issued to the wrong client' },
  InvoiceChangeResponseDto: MESSAGE,
  MessageResponseDto: MESSAGE,
  LineItemDto: LINE_INPUT,
  LineItemOutputDto: EXAMPLE_LINES[0],
  LineItemWithAmountDto: EXAMPLE_LINES[0],
  LineTaxDto: {
    rate: '0',
    category: 'AE',
    name: 'VAT',
    exemption_reason: 'Reverse charge',
    exemption_code: 'VATEX-EU-AE',
  },
  LineTaxOutputDto: VAT,
  TaxGroupDto: TAX_GROUP,
  EstimateDto: ESTIMATE,
  EstimateWithTimestampsDto: ESTIMATE,
  EstimateWrittenDto: ESTIMATE,
  CreateEstimateDto: { ...ESTIMATE, ...TERMS_INPUT, client: CLIENT.id, tax_rate: '20' },
  UpdateEstimateDto: { ...ESTIMATE, ...TERMS_INPUT, client: CLIENT.id, tax_rate: '20' },
  ConvertEstimateDto: {
    invoice_no: EXAMPLE_INVOICE.invoice_no,
    issue_date: EXAMPLE_INVOICE.issue_date,
    due_date: EXAMPLE_INVOICE.due_date,
  },
  CreditNoteDto: CREDIT_NOTE,
  CreateCreditNoteDto: { ...CREDIT_NOTE, ...TERMS_INPUT },
  ExpenseDto: EXPENSE,
  CreateExpenseDto: EXPENSE,
  UpdateExpenseDto: EXPENSE,
  ExpenseSourceDto: EXPENSE_SOURCE,
  ExpenseSourceLineDto: EXPENSE_SOURCE_LINE,
  ExpenseSourceTaxGroupDto: EXPENSE_SOURCE_TAX,
  EventDto: EVENT,
  WebhookDto: WEBHOOK,
  WebhookWithSecretDto: WEBHOOK,
  CreateWebhookDto: WEBHOOK,
  UpdateWebhookDto: WEBHOOK,
  WebhookDeliveryDto: DELIVERY,
  WebhookAttemptDto: DELIVERY,
  WebhookDeliveryResponseDto: { message: `Delivery ${DELIVERY.id} queued for another attempt` },
  IssueDocumentDto: { issue_date: EXAMPLE_INVOICE.issue_date },
  RecurringInvoiceDto: RECURRING,
  MadeInvoiceDto: MADE_INVOICE,
  CreateRecurringInvoiceDto: RECURRING_INPUT,
  UpdateRecurringInvoiceDto: RECURRING_INPUT,
  NumberSeriesDto: NUMBER_SERIES,
  UpdateNumberSeriesDto: { format: NUMBER_SERIES.format, next: NUMBER_SERIES.next },
  DeletedResponseDto: { id: EXAMPLE_INVOICE.id },
  PageMetaDto: { page: 1, per_page: 50, total: 1 },
  CursorMetaDto: { per_page: 50, next_after: EXAMPLE_INVOICE.id },
  AgingReportDto: AGING,
  AgingCurrencyDto: PRICED,
  AgingClientDto: AGING,
  AgingAmountsDto: AGING,
  ProfitAndLossReportDto: PROFIT_AND_LOSS,
  ProfitAndLossCurrencyDto: PRICED,
  ProfitAndLossMonthDto: PROFIT_AND_LOSS,
  ProfitAndLossFiguresDto: PROFIT_AND_LOSS,
  TaxSummaryReportDto: TAX_SUMMARY,
  TaxCurrencyDto: PRICED,
  TaxRateDto: TAX_SUMMARY,
  TaxTotalsDto: TAX_SUMMARY,
  StatementDto: STATEMENT,
  StatementCurrencyDto: { ...STATEMENT, currency: PRICED.currency },
  StatementLineDto: STATEMENT,
  DependencyState: { status: 'up', responseTime: 3 },
  SuccessEnvelopeDto: { status: 'success' },
  ErrorEnvelopeDto: {
    status: 'error',
    message: 'The given data was invalid',
    errors: { 'items.0.rate': ['rate must be a number at least 0 and below 10000000000000'] },
  },
};

/** Query parameters, by name. */
const QUERY_EXAMPLES: Examples = {
  page: 1,
  per_page: 50,
  after: '0',
  client: CLIENT.id,
  payment_status: 'Not Paid',
  status: 'open',
  accepted: 'True',
  category: EXPENSE.category,
  currency: PRICED.currency,
  invoice: EXAMPLE_INVOICE.id,
  recurring_invoice: '12',
  from: '2026-03-01',
  to: '2026-03-31',
  as_of: AGING.as_of,
  basis: 'accrual',
  format: 'json',
  q: 'northwind',
  type: EVENT.type,
  object: EVENT.object,
  object_id: EVENT.object_id,
};

/** The e-invoice routes' parameters, where `format` names an e-invoice format. */
const EINVOICE_QUERY_EXAMPLES: Examples = { format: 'xrechnung-cii' };

/** The record a path's `{id}` names, by the path segment before it. */
const PATH_ID_EXAMPLES: Examples = {
  client: CLIENT.id,
  invoice: EXAMPLE_INVOICE.id,
  paid: EXAMPLE_INVOICE.id,
  'not-paid': EXAMPLE_INVOICE.id,
  estimate: ESTIMATE.id,
  'credit-note': CREDIT_NOTE.id,
  expense: EXPENSE.id,
  event: EVENT.id,
  webhook: WEBHOOK.id,
  delivery: DELIVERY.id,
  'recurring-invoice': RECURRING.id,
};

/** A property is given its example here unless it is a reference or composed of them. */
export function takesExample(schema: SchemaObject): boolean {
  return (
    !('$ref' in schema) &&
    !schema.allOf &&
    !(schema.oneOf ?? []).some((part) => '$ref' in part) &&
    !(schema.type === 'array' && schema.items && '$ref' in schema.items)
  );
}

/** The document with the examples of the story in every schema and parameter. */
export function withExamples(document: OpenAPIObject): OpenAPIObject {
  const schemas = Object.fromEntries(
    Object.entries(document.components?.schemas ?? {}).map(([name, schema]) => {
      const examples = SCHEMA_EXAMPLES[name];
      const object = schema as SchemaObject;
      if (!examples || !object.properties) return [name, schema];
      const properties = Object.fromEntries(
        Object.entries(object.properties).map(([key, property]) =>
          key in examples && takesExample(property as SchemaObject)
            ? [key, { ...property, example: examples[key] }]
            : [key, property],
        ),
      );
      return [name, { ...object, properties }];
    }),
  );
  const paths = Object.fromEntries(
    Object.entries(document.paths).map(([path, item]) => [
      path,
      Object.fromEntries(
        Object.entries(item).map(([method, operation]: [string, unknown]) => {
          const parameters = (operation as { parameters?: ParameterObject[] }).parameters;
          if (!parameters) return [method, operation];
          return [
            method,
            {
              ...(operation as object),
              parameters: parameters.map((parameter) => withParameterExample(path, parameter)),
            },
          ];
        }),
      ),
    ]),
  );
  return { ...document, paths, components: { ...document.components, schemas } };
}

function withParameterExample(path: string, parameter: ParameterObject): ParameterObject {
  const schema = parameter.schema as SchemaObject | undefined;
  if (!schema || parameter.in === 'header') return parameter;
  let example: unknown;
  if (parameter.in === 'path') {
    const segments = path.split('/');
    example = PATH_ID_EXAMPLES[segments[segments.indexOf(`{${parameter.name}}`) - 1]];
  } else {
    example = (path.endsWith('/einvoice') ? EINVOICE_QUERY_EXAMPLES : QUERY_EXAMPLES)[
      parameter.name
    ];
  }
  return example === undefined ? parameter : { ...parameter, schema: { ...schema, example } };
}
