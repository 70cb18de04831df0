import type { DocumentView } from '../document-view';
import { DocumentMessages, MessageKey } from './document-messages';

/** A labelled line of a document or its e-mail: a total, a detail of the issuer. */
export interface LabelledRow {
  label: string;
  value: string;
  /** Bold: the total and the balance due. */
  strong?: boolean;
}

/**
 * The totals as the PDF and the e-mail both print them, in the document's currency and
 * locale. They agree with the API and with each other:
 * - an invoice prints its `amount_paid` (payments and credits less refunds), named "paid and
 *   credited" when credits count in it, so the signed ledger rows sum to it;
 * - an open invoice then asks for its balance; a paid one shows a balance of 0, what was
 *   settled without a recorded payment (marked paid by hand) said as such; a void one asks for
 *   nothing and prints no balance;
 * - a credit note that returned money says how much and when.
 */
export function totalRows(
  view: DocumentView,
  { t, amount, money, date }: DocumentMessages,
): LabelledRow[] {
  const shown = (value: string) => money(value, view.currency);
  const rows: LabelledRow[] = [
    { label: t('label.subTotal'), value: shown(view.subTotal) },
    { label: t('label.tax', { rate: amount(view.taxRate) }), value: shown(view.taxAmount) },
    { label: t('label.total'), value: shown(view.total), strong: true },
  ];
  if (view.refunded !== undefined && isPositive(view.refunded)) {
    rows.push({
      label: t('label.refundedOn', { date: date(view.issueDate) }),
      value: shown(view.refunded),
    });
  }
  if (view.amountPaid === undefined) return rows;
  rows.push({
    label: t(settledByCredit(view) ? 'label.paidAndCredited' : 'label.amountPaid'),
    value: shown(view.amountPaid),
  });
  if (view.mark === 'void') return rows;
  const balance = view.balanceDue ?? '0';
  if (view.mark === 'paid') {
    if (isPositive(balance))
      rows.push({ label: t('label.settledOtherwise'), value: shown(balance) });
    rows.push({ label: t('label.balance'), value: shown(zeroLike(balance)), strong: true });
    return rows;
  }
  rows.push({ label: t('label.balanceDue'), value: shown(balance), strong: true });
  return rows;
}

/**
 * Whether the document asks to be paid, and so prints how (bank details, payment terms): an
 * invoice that is neither paid nor void and still has a balance. Estimates and credit notes
 * never do.
 */
export function asksForPayment(view: DocumentView): boolean {
  return (
    view.kind === 'invoice' && view.mark === undefined && isPositive(view.balanceDue ?? view.total)
  );
}

/** Whether credit notes count in the invoice's amount paid: then it is not all paid money. */
export function settledByCredit(view: DocumentView): boolean {
  return (view.ledger ?? []).some((entry) => entry.kind === 'credit');
}

/** Whether plain decimal text is above zero. */
export function isPositive(decimalText: string): boolean {
  return !decimalText.startsWith('-') && /[1-9]/.test(decimalText);
}

/** Zero with the same decimal places as the text (`238.00` → `0.00`, `1500` → `0`). */
function zeroLike(decimalText: string): string {
  const fraction = decimalText.split('.')[1];
  return fraction === undefined ? '0' : `0.${'0'.repeat(fraction.length)}`;
}

/**
 * `Label: value` as the locale writes it (`label.pair`: fr `Label : value`), or '' when there
 * is no value (the line is then left out).
 */
export function labelled(messages: DocumentMessages, key: MessageKey, value: string): string {
  return value && messages.t('label.pair', { label: messages.t(key), value });
}
