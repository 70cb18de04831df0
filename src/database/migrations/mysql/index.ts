import { ClientsAndExpenses1763800000000 } from './1763800000000-clients-and-expenses';
import { Invoices1763900000000 } from './1763900000000-invoices';
import { Estimates1764000000000 } from './1764000000000-estimates';
import { DocumentOutbox1764100000000 } from './1764100000000-document-outbox';
import { DocumentNumberLookup1764200000000 } from './1764200000000-document-number-lookup';
import { IdempotencyKeys1764300000000 } from './1764300000000-idempotency-keys';
import { Corrections1764400000000 } from './1764400000000-corrections';
import { EventsAndWebhooks1764500000000 } from './1764500000000-events-and-webhooks';
import { Receivables1764600000000 } from './1764600000000-receivables';
import { Documents1764700000000 } from './1764700000000-documents';
import { Taxes1764800000000 } from './1764800000000-taxes';
import { NumberSeries1764900000000 } from './1764900000000-number-series';
import { Drafts1765000000000 } from './1765000000000-drafts';
import { RecurringInvoices1765100000000 } from './1765100000000-recurring-invoices';
import { LineTaxesVarchar1765200000000 } from './1765200000000-line-taxes-varchar';
import { EinvoiceParties1765300000000 } from './1765300000000-einvoice-parties';
import { ExpenseSources1765410000000 } from './1765410000000-expense-sources';
import { OutboxEinvoice1765500000000 } from './1765500000000-outbox-einvoice';

/** Applied in this order; a new migration is appended, never inserted. */
export const MYSQL_MIGRATIONS = [
  ClientsAndExpenses1763800000000,
  Invoices1763900000000,
  Estimates1764000000000,
  DocumentOutbox1764100000000,
  DocumentNumberLookup1764200000000,
  IdempotencyKeys1764300000000,
  Corrections1764400000000,
  EventsAndWebhooks1764500000000,
  Receivables1764600000000,
  Documents1764700000000,
  Taxes1764800000000,
  NumberSeries1764900000000,
  Drafts1765000000000,
  RecurringInvoices1765100000000,
  LineTaxesVarchar1765200000000,
  EinvoiceParties1765300000000,
  ExpenseSources1765410000000,
  OutboxEinvoice1765500000000,
];
