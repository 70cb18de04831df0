import { Decimal } from '../../src/common/money/decimal';
import { MESSAGE_CATALOGS } from '../../src/documents/i18n/document-messages';
import { pdfText } from './pdf-text';

/*
 * A printed invoice agrees with itself and with the API: its ledger rows, signed as they
 * count, sum to the amount paid it prints, which is the API's `amount_paid`; an open invoice's
 * balance due is the API's `outstanding_balance`, a paid one's balance is 0, a void one prints
 * none. The response recorder runs this on every invoice PDF an e2e file fetches, with the
 * invoice as the API answered it at that moment.
 */

/** One invoice PDF and the invoice's JSON, read together. */
export interface PrintedInvoice {
  id: string;
  pdf: Buffer;
  invoice: {
    currency: string;
    amount_paid: string;
    outstanding_balance: string;
    status: string;
    payments: unknown[];
  };
}

type Catalog = (typeof MESSAGE_CATALOGS)['en'];

/** A label as printed: the message with its placeholders (none of these have any) as text. */
function label(catalog: Catalog, key: keyof Catalog, values: Record<string, string> = {}): string {
  return catalog[key].replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? '');
}

/** Printed amount text in any of the locales (`1,000.69`, `1.000,69`, `1 000,69`) as Decimal. */
function amountOf(text: string, catalogLocale: string): Decimal {
  const decimalComma = catalogLocale !== 'en';
  const negative = /^[-−\u2212]/.test(text.trim());
  const digits = text
    .replace(/[^\d.,]/g, '')
    .replace(decimalComma ? /\./g : /,/g, '')
    .replace(',', '.');
  const value = new Decimal(digits === '' ? 'NaN' : digits);
  return negative ? value.negated() : value;
}

/** What is wrong with one printed invoice, or null. */
export async function printedLedgerProblem(printed: PrintedInvoice): Promise<string | null> {
  const { invoice } = printed;
  const text = (await pdfText(printed.pdf)).text;
  const lines = text.split('\n').map((line) => line.replace(/\s+/g, ' ').trim());
  const found = Object.entries(MESSAGE_CATALOGS).find(
    ([, catalog]) =>
      lines.some((line) => line.startsWith(label(catalog, 'label.total'))) &&
      lines.some((line) => line.startsWith(label(catalog, 'label.subTotal'))),
  );
  if (!found) return `invoice ${printed.id}: no totals found in its PDF`;
  const [locale, catalog] = found;
  const where = `invoice ${printed.id} (${locale})`;
  const money = `(-?[\\d.,\\u00a0\\u202f ]+) ${invoice.currency}$`;
  const rowValue = (key: keyof Catalog): Decimal | null => {
    const pattern = new RegExp(`^${escape(label(catalog, key))} ${money}`);
    const line = lines.find((candidate) => pattern.test(candidate));
    return line ? amountOf(pattern.exec(line)![1], locale) : null;
  };
  const paid = rowValue('label.amountPaid') ?? rowValue('label.paidAndCredited');
  if (paid === null) return `${where}: no amount paid printed`;

  // The ledger: the rows under its column headers, each ending in its signed amount.
  const header = [
    label(catalog, 'ledger.date'),
    label(catalog, 'ledger.kind'),
    label(catalog, 'ledger.reference'),
    label(catalog, 'ledger.amount', { currency: invoice.currency }),
  ].join(' ');
  const kinds = ['ledger.payment', 'ledger.refund', 'ledger.credit'].map((key) =>
    label(catalog, key as keyof Catalog),
  );
  let sum = new Decimal(0);
  let rows = 0;
  let inLedger = false;
  for (const line of lines) {
    if (line === header) {
      inLedger = true;
      continue;
    }
    if (!inLedger) continue;
    const row = /^(.*) (-?[\d][\d.,\u00a0\u202f ]*)$/.exec(line);
    if (!row || !kinds.some((kind) => row[1].includes(` ${kind} `) || row[1].endsWith(` ${kind}`)))
      continue;
    sum = sum.plus(amountOf(row[2], locale));
    rows += 1;
  }
  if (rows !== invoice.payments.length) {
    return `${where}: ${rows} ledger rows printed, the API lists ${invoice.payments.length}`;
  }
  if (!sum.equals(paid)) {
    return `${where}: the printed ledger sums to ${sum.toFixed()}, the printed amount paid is ${paid.toFixed()}`;
  }
  if (!paid.equals(new Decimal(invoice.amount_paid))) {
    return `${where}: prints ${paid.toFixed()} paid, the API says ${invoice.amount_paid}`;
  }
  const due = rowValue('label.balanceDue');
  const balance = rowValue('label.balance');
  if (invoice.status === 'void') {
    if (due !== null || balance !== null) return `${where}: a void invoice prints a balance`;
  } else if (invoice.status === 'paid') {
    if (due !== null || balance === null || !balance.isZero()) {
      return `${where}: a paid invoice must print a balance of 0 and no balance due`;
    }
  } else if (due === null || !due.equals(new Decimal(invoice.outstanding_balance))) {
    return `${where}: prints ${due?.toFixed() ?? 'no'} balance due, the API says ${invoice.outstanding_balance}`;
  }
  return null;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
